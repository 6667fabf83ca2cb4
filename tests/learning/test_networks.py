"""The Nature CNN's convolutions: gradients written by hand (so XLA's CPU backend keeps its fast
convolution inside PPO's loops) that equal JAX's own, and a compiled loop that holds only the
convolution form the fast path takes."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

from alignment.learning.networks import NatureCNN, valid_conv

NHWC = ("NHWC", "HWIO", "NHWC")


def _autodiff_conv(x, w, stride):
    return lax.conv_general_dilated(x, w, (stride, stride), "VALID", dimension_numbers=NHWC)


# (input size, kernel, stride, channels in, channels out): the CNN's three layers on 84x84, then
# sizes the stride does not divide, where part of the input never reaches an output
@pytest.mark.parametrize("size,kernel,stride,cin,cout", [
    (84, 8, 4, 4, 32), (20, 4, 2, 32, 64), (9, 3, 1, 64, 64), (11, 4, 3, 2, 3), (13, 5, 2, 3, 1)])
def test_gradients_equal_autodiff(size, kernel, stride, cin, cout):
    rng = np.random.default_rng(size)
    x = jnp.asarray(rng.normal(size=(3, size, size, cin)), jnp.float32)
    w = jnp.asarray(rng.normal(size=(kernel, kernel, cin, cout)), jnp.float32)
    # a nonlinear loss so the output's cotangent varies from pixel to pixel
    ref = jax.grad(lambda x, w: jnp.sin(_autodiff_conv(x, w, stride)).sum(), (0, 1))(x, w)
    ours = jax.grad(lambda x, w: jnp.sin(valid_conv(x, w, (stride, stride), "VALID")).sum(),
                    (0, 1))(x, w)
    assert ours[0].shape == x.shape and ours[1].shape == w.shape
    for a, b in zip(ref, ours):
        np.testing.assert_allclose(np.asarray(b), np.asarray(a), rtol=1e-4,
                                   atol=1e-4 * float(jnp.abs(a).max()))
    np.testing.assert_array_equal(np.asarray(valid_conv(x, w, (stride, stride), [(0, 0), (0, 0)])),
                                  np.asarray(_autodiff_conv(x, w, stride)))


def _conv_labels(compiled_text: str) -> list[str]:
    return [line.split("dim_labels=")[1].split(",")[0]
            for line in compiled_text.splitlines() if " convolution(" in line]


def _loop_of_gradients(loss):
    grad = jax.grad(loss)

    def run(params, obs):
        def body(p, _):
            return jax.tree_util.tree_map(lambda a, g: a - 1e-3 * g, p, grad(p, obs)), None

        return lax.scan(body, params, None, length=2)[0]

    return jax.jit(run)


def test_a_loop_over_the_cnns_gradient_compiles_to_plain_convolutions():
    net = NatureCNN(6)
    obs = jnp.zeros((8, 4, 84, 84), jnp.uint8)
    params = net.init(jax.random.key(0), obs[:1])
    loss = lambda p, o: sum(out.sum() for out in net.apply(p, o))
    labels = _conv_labels(_loop_of_gradients(loss).lower(params, obs).compile().as_text())
    # three forward, three weight gradients, two input gradients (the first layer's is not needed)
    assert len(labels) == 8
    assert set(labels) == {"b01f_01io->b01f"}, labels


def test_the_check_on_plain_convolutions_sees_autodiffs_form():
    # The same loop with JAX's own convolution gradient: XLA's CPU backend leaves permuted labels
    # in the loop body (the slow path), so the test above would catch a regression.
    w = jnp.ones((8, 8, 4, 32))
    x = jnp.ones((8, 84, 84, 4))
    loss = lambda w, x: (_autodiff_conv(x, w, 4) ** 2).sum()
    labels = _conv_labels(_loop_of_gradients(loss).lower(w, x).compile().as_text())
    if jax.default_backend() != "cpu":
        pytest.skip("the permuted form is what XLA's CPU backend leaves; other backends differ")
    assert any(label != "b01f_01io->b01f" for label in labels), labels


@pytest.mark.parametrize("kwargs,what", [
    ({"window_strides": (2, 1)}, "square stride"),
    ({"padding": "SAME"}, "VALID"),
    ({"padding": [(1, 1), (1, 1)]}, "VALID"),
    ({"rhs_dilation": (2, 2)}, "dilation"),
    ({"feature_group_count": 2}, "groups"),
    ({"dimension_numbers": ("NCHW", "OIHW", "NCHW")}, "NHWC"),
])
def test_other_convolutions_are_refused_by_name(kwargs, what):
    args = {"window_strides": (1, 1), "padding": "VALID", **kwargs}
    with pytest.raises(ValueError, match=what):
        valid_conv(jnp.ones((1, 8, 8, 4)), jnp.ones((3, 3, 4, 4)), **args)
