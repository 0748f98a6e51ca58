"""Custom steps as Keras users write them (issue 16, item 3): ``model.metrics`` is
Keras's list (the ``loss`` tracker, then the compiled metrics as one ``CompileMetrics``
whose ``result()`` is a dict), so a step that updates and returns every metric of the
model gives Keras's logs; and a model built in ``__init__`` with only a ``train_step``
(Keras's GAN pattern, no ``call``) trains without any forward pass of its own.

The evaluation step below is Keras's guide's, run unchanged on mb and on Keras 3 (a
subprocess on its torch backend, where a ``test_step(self, data)`` runs as written).
"""

from __future__ import annotations

import importlib.util
import inspect
import json

import numpy as np
import pytest

import mb as keras
from mb_ops import testing

pytestmark = pytest.mark.trains

TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}


def guide_report(k):
    """Keras's guide's evaluation step, for `k` = mb or keras (JSON-able report)."""

    class CustomModel(k.Model):
        def test_step(self, data):
            x, y = data
            y_pred = self(x, training=False)
            loss = self.compute_loss(y=y, y_pred=y_pred)
            for metric in self.metrics:
                if metric.name == "loss":
                    metric.update_state(loss)
                else:
                    metric.update_state(y, y_pred)
            return {m.name: m.result() for m in self.metrics}

    rng = np.random.default_rng(0)
    inp = k.Input((3,))
    model = CustomModel(inp, k.layers.Dense(1)(inp))
    model.set_weights([rng.normal(size=w.shape).astype("float32") for w in model.get_weights()])
    model.compile(loss="mse", metrics=["mae", "mse"])
    x = rng.normal(size=(8, 3)).astype("float32")
    y = rng.normal(size=(8, 1)).astype("float32")
    out = {"names_before": model.metrics_names}
    out["dict"] = model.evaluate(x, y, batch_size=4, verbose=0, return_dict=True)
    out["list"] = model.evaluate(x, y, batch_size=4, verbose=0)
    out["names"] = model.metrics_names
    out["types"] = [type(m).__name__ for m in model.metrics]
    last = model.metrics[-1]
    out["last_result"] = {key: float(value) for key, value in last.result().items()}
    stateless = last.stateless_result([v.value for v in last.variables])
    out["last_stateless"] = {key: float(value) for key, value in stateless.items()}
    out["sub_metrics"] = [m.name for m in last.metrics]
    return out


_KERAS_MAIN = """
import json
import numpy as np
import keras
print(json.dumps(guide_report(keras)))
"""


@pytest.fixture(scope="module")
def keras_report():
    if importlib.util.find_spec("keras") is None:
        pytest.skip("Keras 3 is a test-only dependency")
    done = testing.run_keras(inspect.getsource(guide_report) + _KERAS_MAIN, backend="torch")
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def mb_report():
    return guide_report(keras)


@pytest.mark.heavy
@pytest.mark.parametrize("key", ["names_before", "names", "types", "sub_metrics"])
def test_model_metrics_is_keras_list(key, mb_report, keras_report):
    assert mb_report[key] == keras_report[key]


@pytest.mark.heavy
@pytest.mark.parametrize("key", ["dict", "last_result", "last_stateless"])
def test_a_step_returning_every_metric_logs_what_keras_logs(key, mb_report, keras_report):
    assert sorted(mb_report[key]) == sorted(keras_report[key])
    for name, value in keras_report[key].items():
        np.testing.assert_allclose(mb_report[key][name], value, **TOLERANCE)


@pytest.mark.heavy
def test_evaluate_lists_the_values_in_keras_order(mb_report, keras_report):
    np.testing.assert_allclose(mb_report["list"], keras_report["list"], **TOLERANCE)


class _GANLike(keras.Model):
    """Keras's GAN example's shape: sub-models built in ``__init__``, ``self.built =
    True``, a `compile` of its own, a `train_step`, and no `call`."""

    def __init__(self):
        super().__init__()
        self.generator = keras.Sequential([keras.Input((2,)), keras.layers.Dense(2)])
        self.critic = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
        self.loss_tracker = keras.metrics.Mean(name="g_loss")
        self.built = True

    def compile(self, g_optimizer):
        super().compile()
        self.g_optimizer = g_optimizer

    @property
    def metrics(self):
        return [self.loss_tracker]

    def train_step(self, data):
        variables = self.generator.trainable_variables

        def loss_fn():
            fake = self.generator(data)
            return keras.ops.mean(keras.ops.square(self.critic(fake) - 1.0))

        loss, grads = keras.models.value_and_gradients(loss_fn, variables)
        self.g_optimizer.apply(grads, variables)
        self.loss_tracker.update_state(loss)
        return {"g_loss": self.loss_tracker.result()}


def test_a_model_built_in_init_trains_by_its_train_step_without_a_forward_pass():
    gan = _GANLike()
    gan.compile(g_optimizer=keras.optimizers.SGD(0.05))
    x = np.random.default_rng(0).normal(size=(32, 2)).astype("float32")
    critic_before = [w.copy() for w in gan.critic.get_weights()]
    history = gan.fit(x, batch_size=8, epochs=3, shuffle=False, verbose=0)
    losses = history.history["g_loss"]
    assert len(losses) == 3 and losses[-1] < losses[0]
    for before, after in zip(critic_before, gan.critic.get_weights(), strict=True):
        np.testing.assert_array_equal(before, after)  # only the generator trained
    with pytest.raises(NotImplementedError):
        gan(x)  # it has no forward pass: fit never ran one
