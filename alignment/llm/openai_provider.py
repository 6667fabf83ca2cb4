"""GPT models through the official ``openai`` SDK, with structured output.

The request goes to ``client.chat.completions.parse`` with the pydantic answer model as
``response_format``: the SDK turns it into a strict ``json_schema`` response format, and parses the
answer back into the model. Chat Completions is used rather than the Responses API because every
OpenAI-compatible endpoint speaks it. A cut-off answer (``finish_reason: length``), a content-filter
stop, a refusal or an off-schema answer each get a precise message.

Retries (429, 5xx, connection errors, with the server's ``retry-after`` honoured) are the SDK's own,
set by ``max_retries``; ``timeout`` bounds each attempt.
"""

from __future__ import annotations

from typing import Optional

import pydantic

from alignment.llm.base import (
    LLMOutputError,
    StructuredRequest,
    T,
    describe_validation_error,
    parse_output,
    request_error,
    require_key,
)

NAME = "openai"
API_KEY_ENV = "OPENAI_API_KEY"
DEFAULT_MODEL = "gpt-5.5"
DEFAULT_MAX_RETRIES = 4
DEFAULT_TIMEOUT_S = 120.0
# The whole call, SDK retries included: a user waits this long at most (--timeout).
DEFAULT_DEADLINE_S = 180.0


class OpenAIProvider:
    """Structured answers from an OpenAI chat model."""

    name = NAME

    def __init__(self, model: Optional[str] = None, *, api_key: Optional[str] = None,
                 max_retries: int = DEFAULT_MAX_RETRIES, timeout: float = DEFAULT_TIMEOUT_S,
                 deadline: float = DEFAULT_DEADLINE_S) -> None:
        self.model = model or DEFAULT_MODEL
        self.max_retries = max_retries
        self.deadline = deadline
        # no single attempt may outlive the whole call
        self.timeout = min(timeout, deadline)
        self._api_key = api_key
        self._client = None  # made on first use: a cache hit needs neither a key nor a client

    def client(self):
        if self._client is None:
            import openai

            key = require_key(NAME, API_KEY_ENV, self._api_key)
            self._client = openai.OpenAI(api_key=key, max_retries=self.max_retries, timeout=self.timeout)
        return self._client

    def generate(self, request: StructuredRequest[T]) -> tuple[T, str]:
        import openai

        client = self.client()
        try:
            completion = client.chat.completions.parse(
                model=self.model,
                messages=[
                    {"role": "system", "content": request.system},
                    {"role": "user", "content": request.prompt},
                ],
                response_format=request.output_model,
                max_completion_tokens=request.max_tokens,
            )
        except openai.LengthFinishReasonError:
            raise LLMOutputError(
                f"{NAME} ({self.model}) stopped at the {request.max_tokens}-token limit before "
                "finishing its answer, so the JSON is cut off; give it fewer documents or a larger limit",
                retryable=False,
            ) from None
        except openai.ContentFilterFinishReasonError:
            raise LLMOutputError(
                f"{NAME} ({self.model}) stopped its answer at the content filter", retryable=False
            ) from None
        except pydantic.ValidationError as err:  # the SDK's parse of the answer into the model
            raise LLMOutputError(describe_validation_error(NAME, self.model, err)) from None
        except openai.APIStatusError as err:
            raise self._error(err.status_code, err.message) from None
        except openai.APIConnectionError as err:  # includes APITimeoutError
            raise self._error(None, str(err)) from None

        if not completion.choices:
            raise LLMOutputError(f"{NAME} ({self.model}) returned no choices")
        message = completion.choices[0].message
        if message.refusal:
            raise LLMOutputError(
                f"{NAME} ({self.model}) declined to answer: {message.refusal[:200]}", retryable=False
            )
        text = message.content
        if message.parsed is not None and text:
            return message.parsed, text
        return parse_output(NAME, self.model, text, request.output_model), text or ""

    def _error(self, status: Optional[int], detail: str):
        return request_error(NAME, self.model, API_KEY_ENV, status, detail,
                             max_retries=self.max_retries, timeout=self.timeout)
