"""Claude through the official ``anthropic`` SDK, with structured output.

The request goes to ``client.messages.create`` with ``output_config.format`` set to a JSON schema made
from the pydantic answer model by the SDK's own ``transform_schema`` (the Messages API's
structured-output facility; ``messages.parse`` builds the same request). The answer arrives as a
text block holding JSON that fits the schema; it is validated here against the pydantic model, so a
truncated, declined or off-schema answer gets a precise message instead of a bare validation trace.

Models without structured output reject ``output_config.format`` with a 400; the provider then asks
once more the older way - a single tool whose ``input_schema`` is the same schema, forced with
``tool_choice`` - and reads the answer from the ``tool_use`` block (``mode="tool"`` asks that way
from the start).

Retries (429, 5xx, connection errors, with the server's ``retry-after`` honoured) are the SDK's own,
set by ``max_retries``; ``timeout`` bounds each attempt.
"""

from __future__ import annotations

import json
from typing import Literal, Optional

from alignment.llm.base import (
    LLMOutputError,
    StructuredRequest,
    T,
    parse_output,
    request_error,
    require_key,
)

NAME = "anthropic"
API_KEY_ENV = "ANTHROPIC_API_KEY"
DEFAULT_MODEL = "claude-sonnet-5-5"
DEFAULT_MAX_RETRIES = 4
DEFAULT_TIMEOUT_S = 120.0
# The whole call, SDK retries included: a user waits this long at most (--timeout).
DEFAULT_DEADLINE_S = 180.0
ANSWER_TOOL = "record_answer"
Mode = Literal["json_schema", "tool"]


class AnthropicProvider:
    """Structured answers from a Claude model."""

    name = NAME

    def __init__(self, model: Optional[str] = None, *, api_key: Optional[str] = None,
                 max_retries: int = DEFAULT_MAX_RETRIES, timeout: float = DEFAULT_TIMEOUT_S,
                 deadline: float = DEFAULT_DEADLINE_S,
                 mode: Mode = "json_schema") -> None:
        self.model = model or DEFAULT_MODEL
        self.mode: Mode = mode
        self.max_retries = max_retries
        self.deadline = deadline
        # no single attempt may outlive the whole call
        self.timeout = min(timeout, deadline)
        self._api_key = api_key
        self._client = None  # made on first use: a cache hit needs neither a key nor a client

    def client(self):
        if self._client is None:
            import anthropic

            key = require_key(NAME, API_KEY_ENV, self._api_key)
            self._client = anthropic.Anthropic(
                api_key=key, max_retries=self.max_retries, timeout=self.timeout
            )
        return self._client

    def generate(self, request: StructuredRequest[T]) -> tuple[T, str]:
        import anthropic

        client = self.client()
        schema = anthropic.transform_schema(request.output_model)
        common = dict(
            model=self.model,
            max_tokens=request.max_tokens,
            system=request.system,
            messages=[{"role": "user", "content": request.prompt}],
        )
        try:
            if self.mode == "json_schema":
                try:
                    message = client.messages.create(
                        **common, output_config={"format": {"type": "json_schema", "schema": schema}}
                    )
                except anthropic.BadRequestError as err:
                    if not _rejects_output_format(err.message):
                        raise
                    self.mode = "tool"  # this model has no structured output: use a forced tool
            if self.mode == "tool":
                message = client.messages.create(
                    **common,
                    tools=[{
                        "name": ANSWER_TOOL,
                        "description": "Record the complete answer. Call this exactly once.",
                        "input_schema": schema,
                    }],
                    tool_choice={"type": "tool", "name": ANSWER_TOOL},
                )
        except anthropic.APIStatusError as err:
            raise self._error(err.status_code, err.message) from None
        except anthropic.APIConnectionError as err:  # includes APITimeoutError
            raise self._error(None, str(err)) from None

        if message.stop_reason == "max_tokens":
            raise LLMOutputError(
                f"{NAME} ({self.model}) stopped at the {request.max_tokens}-token limit before "
                "finishing its answer, so the JSON is cut off; give it fewer documents or a larger limit",
                retryable=False,
            )
        if message.stop_reason == "refusal":
            raise LLMOutputError(f"{NAME} ({self.model}) declined to answer", retryable=False)
        if self.mode == "tool":
            calls = [b for b in message.content if b.type == "tool_use" and b.name == ANSWER_TOOL]
            if not calls:
                raise LLMOutputError(f"{NAME} ({self.model}) did not call the {ANSWER_TOOL} tool")
            text = json.dumps(calls[0].input, ensure_ascii=False)
        else:
            text = "".join(block.text for block in message.content if block.type == "text")
        return parse_output(NAME, self.model, text, request.output_model), text

    def _error(self, status: Optional[int], detail: str):
        return request_error(NAME, self.model, API_KEY_ENV, status, detail,
                             max_retries=self.max_retries, timeout=self.timeout)


def _rejects_output_format(detail: str) -> bool:
    """Whether a 400 says the model does not take ``output_config.format`` (structured output)."""
    text = detail.lower()
    return "output_config" in text or "output format" in text or "structured output" in text
