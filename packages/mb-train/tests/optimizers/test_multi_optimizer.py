"""MultiOptimizer and OptimizerMap: routing, the update against NumPy and Keras 3, `fit` on
jax, torch and tensorflow, configs, `.keras` files both ways, callbacks, errors; and the
`legacy` names, which only raise.

Tolerances: float32 updates against float64 NumPy, rtol=1e-5 and atol=1e-6 for one
optimizer step; rtol=1e-4 and atol=1e-5 after several training steps (forward and
backward passes run in float32 on each engine).
"""

import importlib.util
import json
import os
import subprocess
import sys
import zipfile

import h5py
import numpy as np
import pytest

import mb_layers
import mb_ops
import mb_saving
from mb_ops import ops, testing
from mb_train import callbacks, optimizers
from mb_train.models import Sequential

STEP = {"rtol": 1e-5, "atol": 1e-6}
FIT = {"rtol": 1e-4, "atol": 1e-5}
_NAMES = ["enc_kernel", "enc_bias", "head_kernel", "other"]
_SHAPES = ((3, 4), (4,), (4, 2), (2,))


def _multi():
    """enc_* -> Adam, head_kernel (exact key) -> SGD with momentum, the rest -> RMSprop."""
    optimizer_map = optimizers.OptimizerMap(
        default_optimizer=optimizers.RMSprop(0.01, name="rms"),
        optimizer_map={
            "enc_.*": optimizers.Adam(0.05, name="adam"),
            "head_kernel": optimizers.SGD(0.1, momentum=0.9, name="sgd"),
        },
    )
    return optimizers.MultiOptimizer(optimizer_map, name="multi")


def _numpy_expected(h, params, grad_steps):
    """Each variable under its own sub-optimizer's NumPy rule."""
    rules = [
        (h.ref.adam, 0.05, {}),
        (h.ref.adam, 0.05, {}),
        (h.ref.sgd, 0.1, {"momentum": 0.9}),
        (h.ref.rmsprop, 0.01, {}),
    ]
    expected = []
    for i, (rule, lr, hyper) in enumerate(rules):
        steps = [[step[i]] for step in grad_steps]
        values, _ = h.ref.run(rule, [params[i]], steps, learning_rate=lr, **hyper)
        expected.append(values[0])
    return expected


# ----- routing and the update --------------------------------------------------------


@pytest.mark.parametrize("steps", [1, 3])
@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "compiled"])
def test_step_matches_the_numpy_update_of_each_sub_optimizer(h, steps, compiled):
    if compiled and not h.trainable:
        pytest.skip(f"the {h.backend} backend does not compile training steps")
    params, grads = h.make_problem(shapes=_SHAPES, steps=steps, seed=3)
    run = h.run_compiled if compiled else h.run_mb
    got, optimizer = run(_multi(), params, grads, names=_NAMES)
    for g, e, name in zip(got, _numpy_expected(h, params, grads), _NAMES, strict=True):
        np.testing.assert_allclose(g, e, **STEP, err_msg=name)
    assert [o.name for o in optimizer.optimizers] == ["adam", "sgd", "rms"]
    assert int(optimizer.iterations.numpy()) == steps
    assert [int(o.iterations.numpy()) for o in optimizer.optimizers] == [steps] * 3


def test_variables_are_its_own_then_each_sub_optimizers_in_keras_order(h):
    params, _ = h.make_problem(shapes=_SHAPES)
    optimizer = _multi()
    optimizer.build(h.make_variables(params, _NAMES))
    paths = [v.path for v in optimizer.variables]
    assert paths[:2] == ["multi/iteration", "multi/learning_rate"]
    assert paths[2:4] == ["adam/iteration", "adam/learning_rate"]
    assert len(paths) == 2 + (2 + 4) + (2 + 1) + (2 + 1)
    assert [v.path for v in optimizer.optimizers[1]._trainable_variables] == ["head_kernel"]


def test_matches_keras_on_the_same_config(h):
    params, grads = h.make_problem(shapes=_SHAPES, steps=3, seed=11)
    config = optimizers.serialize(_multi())
    [(keras_values, keras_optimizer_values)] = h.keras_results([(config, params, grads, _NAMES)])
    got, optimizer = h.run_mb(_multi(), params, grads, names=_NAMES)
    for g, k in zip(got, keras_values, strict=True):
        np.testing.assert_allclose(g, k, **STEP)
    ours = [v.numpy() for v in optimizer.variables]
    assert [o.shape for o in ours] == [k.shape for k in keras_optimizer_values]
    for variable, o, k in zip(optimizer.variables, ours, keras_optimizer_values, strict=True):
        np.testing.assert_allclose(o, k, **STEP, err_msg=variable.path)


def test_optimizers_are_listed_map_first_then_default_then_discovered():
    adam, sgd, rms = optimizers.Adam(), optimizers.SGD(), optimizers.RMSprop()
    optimizer_map = optimizers.OptimizerMap(rms, {"a.*": adam, "b.*": adam})
    multi = optimizers.MultiOptimizer(optimizer_map)
    assert multi.optimizers == [adam, rms]
    optimizer_map["c.*"] = sgd  # added after the MultiOptimizer: found when building
    multi.build([mb_ops.Variable([1.0], name=n) for n in ("c1", "a1", "z")])
    assert multi.optimizers == [adam, rms, sgd]
    assert [len(o._trainable_variables) for o in multi.optimizers] == [1, 1, 1]


def test_a_function_chooses_and_its_optimizers_are_discovered(h):
    adam, sgd = optimizers.Adam(0.05), optimizers.SGD(0.1)

    def choose(variable):
        return adam if variable.path.startswith("enc") else sgd

    multi = optimizers.MultiOptimizer(choose)
    assert multi.optimizers == []
    params, grads = h.make_problem(shapes=_SHAPES, steps=1, seed=5)
    got, _ = h.run_mb(multi, params, grads, names=_NAMES)
    assert multi.optimizers == [adam, sgd]
    for i in (2, 3):
        np.testing.assert_allclose(got[i], params[i] - 0.1 * grads[0][i], **STEP)


def test_a_sub_optimizer_with_no_variables_keeps_its_state_and_counts_nothing(h):
    params, grads = h.make_problem(shapes=((2,),), steps=2)
    unused = optimizers.Adam(name="unused")
    multi = optimizers.MultiOptimizer(
        optimizers.OptimizerMap(unused, {".*": optimizers.SGD(0.1, name="used")})
    )
    h.run_mb(multi, params, grads, names=["w"])
    assert [int(o.iterations.numpy()) for o in multi.optimizers] == [2, 0]
    assert not unused.built
    assert len(multi.variables) == 2 + 2 + 2  # own, the SGD's, the unused Adam's two


def test_missing_gradients_are_skipped_with_a_warning(h):
    params, grads = h.make_problem(shapes=((2,), (2,)), steps=1)
    variables = h.make_variables(params, ["enc_a", "b"])
    multi = optimizers.MultiOptimizer(
        optimizers.OptimizerMap(optimizers.SGD(0.1), {"enc_.*": optimizers.SGD(0.5)})
    )
    with pytest.warns(UserWarning, match="Gradients do not exist for variables"):
        multi.apply([None, ops.convert_to_tensor(grads[0][1])], variables)
    np.testing.assert_allclose(variables[0].numpy(), params[0])
    np.testing.assert_allclose(variables[1].numpy(), params[1] - 0.1 * grads[0][1], **STEP)
    assert [int(o.iterations.numpy()) for o in multi.optimizers] == [0, 1]


def test_loss_scale_factor_overrides_the_sub_optimizers(h):
    adam = optimizers.Adam(loss_scale_factor=3.0)
    sgd = optimizers.SGD(0.1, loss_scale_factor=8.0)
    multi = optimizers.MultiOptimizer(optimizers.OptimizerMap(sgd, {"enc_.*": adam}), 5.0)
    assert [adam.loss_scale_factor, sgd.loss_scale_factor] == [5.0, 5.0]
    assert float(multi.scale_loss(ops.convert_to_tensor(2.0))) == 10.0
    params, grads = h.make_problem(shapes=((2,),), steps=1)
    got, _ = h.run_mb(multi, params, [[grads[0][0] * 5.0]], names=["w"])
    np.testing.assert_allclose(got[0], params[0] - 0.1 * grads[0][0], **STEP)
    multi.loss_scale_factor = None
    assert [adam.loss_scale_factor, sgd.loss_scale_factor] == [None, None]


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "compiled"])
def test_inside_a_loss_scale_optimizer(h, compiled):
    if compiled and not h.trainable:
        pytest.skip(f"the {h.backend} backend does not compile training steps")
    multi = optimizers.MultiOptimizer(
        optimizers.OptimizerMap(optimizers.SGD(0.1), {"enc_.*": optimizers.SGD(0.5)}),
        loss_scale_factor=5.0,
    )
    wrapped = optimizers.LossScaleOptimizer(multi, initial_scale=4.0, dynamic_growth_steps=10)
    assert multi.loss_scale_factor is None
    assert all(o.loss_scale_factor is None for o in multi.optimizers)
    params, grads = h.make_problem(shapes=((2,), (2,)), steps=3, seed=2)
    scaled = [[g * 4.0 for g in step] for step in grads]
    scaled[1] = [np.full_like(g, np.inf) for g in grads[1]]  # skipped, scale halves
    run = h.run_compiled if compiled else h.run_mb
    got, _ = run(wrapped, params, scaled, names=["enc_a", "b"])
    # Step 3 was scaled by 4 while the scale is 2: the gradients count double.
    finite = [grads[0], [g * 2.0 for g in grads[2]]]
    for i, lr in enumerate((0.5, 0.1)):
        expected = params[i] - lr * (finite[0][i] + finite[1][i])
        np.testing.assert_allclose(got[i], expected, **STEP)
    assert float(wrapped.dynamic_scale.numpy()) == 2.0
    assert int(wrapped.iterations.numpy()) == 2
    assert [int(o.iterations.numpy()) for o in multi.optimizers] == [2, 2]


# ----- fit -----------------------------------------------------------------------------

_FIT_SCRIPT = r"""
import json, sys
import numpy as np
import mb_layers
from mb_train import optimizers
from mb_train.models import Sequential
arrays = np.load(sys.argv[1])
out = {}
for run_eagerly in (False, True):
    model = Sequential([
        mb_layers.Input((3,)),
        mb_layers.layers.Dense(4, name="dense_1"),
        mb_layers.layers.Dense(1, name="dense_2"),
    ])
    model.set_weights([arrays[f"w{i}"] for i in range(4)])
    optimizer = optimizers.MultiOptimizer(optimizers.OptimizerMap(
        default_optimizer=optimizers.SGD(0.1, momentum=0.9),
        optimizer_map={".*dense_1/.*": optimizers.Adam(0.05)},
    ))
    model.compile(optimizer=optimizer, loss="mse", run_eagerly=run_eagerly)
    history = model.fit(arrays["x"], arrays["y"], batch_size=4, epochs=1, shuffle=False, verbose=0)
    key = "eager" if run_eagerly else "compiled"
    for i, w in enumerate(model.get_weights()):
        out[f"{key}_w{i}"] = w
    counters = [optimizer.iterations] + [o.iterations for o in optimizer.optimizers]
    out[f"{key}_iterations"] = np.array([int(c.numpy()) for c in counters])
    out[f"{key}_count"] = np.array(len(optimizer.variables))
np.savez(sys.argv[2], **out)
"""


def _fit_problem():
    rng = np.random.default_rng(4)
    x = rng.normal(size=(12, 3)).astype("float32")
    y = rng.normal(size=(12, 1)).astype("float32")
    weights = [
        rng.normal(size=(3, 4)).astype("float32") * 0.5,
        rng.normal(size=(4,)).astype("float32") * 0.1,
        rng.normal(size=(4, 1)).astype("float32") * 0.5,
        rng.normal(size=(1,)).astype("float32") * 0.1,
    ]
    return x, y, weights


def _fit_expected(h, x, y, weights):
    """Three full steps (batches of 4) of the linear two-layer network in NumPy."""
    w1, b1, w2, b2 = [np.asarray(w, np.float64) for w in weights]
    states = [{} for _ in range(4)]
    for step in range(3):
        xb = x[4 * step : 4 * step + 4].astype(np.float64)
        yb = y[4 * step : 4 * step + 4].astype(np.float64)
        hidden = xb @ w1 + b1
        dy = 2.0 * (hidden @ w2 + b2 - yb) / len(xb)  # mean squared error's gradient
        dh = dy @ w2.T
        grads = [xb.T @ dh, dh.sum(0), hidden.T @ dy, dy.sum(0)]
        t = step + 1
        w1 = h.ref.adam(w1, grads[0], states[0], t, 0.05)
        b1 = h.ref.adam(b1, grads[1], states[1], t, 0.05)
        w2 = h.ref.sgd(w2, grads[2], states[2], t, 0.1, momentum=0.9)
        b2 = h.ref.sgd(b2, grads[3], states[3], t, 0.1, momentum=0.9)
    return [w1, b1, w2, b2]


@pytest.mark.parametrize(
    ("backend", "engine"), [("jax", "jax"), ("torch", "torch"), ("tensorflow", "tensorflow")]
)
def test_fit_on_each_training_backend_matches_numpy(h, tmp_path, backend, engine):
    for module in (engine, f"mb_backend_{backend}"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed")
    x, y, weights = _fit_problem()
    inputs, outputs = tmp_path / "in.npz", tmp_path / "out.npz"
    np.savez(inputs, x=x, y=y, **{f"w{i}": w for i, w in enumerate(weights)})
    env = {**os.environ, "MB_BACKEND": backend, "TF_CPP_MIN_LOG_LEVEL": "3"}
    result = subprocess.run(
        [sys.executable, "-c", _FIT_SCRIPT, str(inputs), str(outputs)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    found = np.load(outputs)
    expected = _fit_expected(h, x, y, weights)
    for mode in ("compiled", "eager"):
        for i, e in enumerate(expected):
            np.testing.assert_allclose(found[f"{mode}_w{i}"], e, **FIT, err_msg=f"{mode} w{i}")
        assert found[f"{mode}_iterations"].tolist() == [3, 3, 3]
        assert int(found[f"{mode}_count"]) == 2 + (2 + 4) + (2 + 2)


def _model(weights):
    model = Sequential(
        [
            mb_layers.Input((3,)),
            mb_layers.layers.Dense(4, name="dense_1"),
            mb_layers.layers.Dense(1, name="dense_2"),
        ]
    )
    model.set_weights(weights)
    return model


def _compiled_model(weights, **sub_kwargs):
    model = _model(weights)
    optimizer = optimizers.MultiOptimizer(
        optimizers.OptimizerMap(
            default_optimizer=optimizers.SGD(0.1, momentum=0.9, name="sgd"),
            optimizer_map={".*dense_1/.*": optimizers.Adam(0.05, name="adam", **sub_kwargs)},
        )
    )
    model.compile(optimizer=optimizer, loss="mse")
    return model


@pytest.fixture
def _trainable(h):
    if not h.trainable:
        pytest.skip(f"the {h.backend} backend cannot train")


@pytest.mark.usefixtures("_trainable")
def test_learning_rate_callbacks_act_on_each_sub_optimizer():
    x, y, weights = _fit_problem()
    model = _compiled_model(weights)
    adam, sgd = model.optimizer.optimizers
    scheduler = callbacks.LearningRateScheduler(lambda epoch, lr: lr * 0.5)
    history = model.fit(x, y, batch_size=4, epochs=2, verbose=0, callbacks=[scheduler])
    np.testing.assert_allclose(history.history["learning_rate_adam"], [0.025, 0.0125], rtol=1e-6)
    np.testing.assert_allclose(history.history["learning_rate_sgd"], [0.05, 0.025], rtol=1e-6)
    assert "learning_rate" not in history.history
    plateau = callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=0, min_delta=1e9)
    model.fit(x, y, batch_size=4, epochs=2, verbose=0, callbacks=[plateau])
    np.testing.assert_allclose(float(adam.learning_rate.numpy()), 0.00625, rtol=1e-6)
    np.testing.assert_allclose(float(sgd.learning_rate.numpy()), 0.0125, rtol=1e-6)


@pytest.mark.usefixtures("_trainable")
def test_swap_ema_weights_swaps_only_the_sub_optimizers_with_ema():
    x, y, weights = _fit_problem()
    model = _compiled_model(weights, use_ema=True, ema_momentum=0.5)
    model.train_on_batch(x[:4], y[:4])
    model.train_on_batch(x[4:8], y[4:8])
    adam = model.optimizer.optimizers[0]
    live = model.get_weights()
    averages = [v.numpy() for v in adam._model_variables_moving_average]
    seen = []
    probe = callbacks.LambdaCallback(on_test_begin=lambda logs: seen.append(model.get_weights()))
    model.evaluate(x, y, verbose=0, callbacks=[callbacks.SwapEMAWeights(), probe])
    during = seen[0]
    np.testing.assert_array_equal(during[0], averages[0])
    np.testing.assert_array_equal(during[1], averages[1])
    np.testing.assert_array_equal(during[2], live[2])  # dense_2 (SGD, no EMA) untouched
    for now, before in zip(model.get_weights(), live, strict=True):
        np.testing.assert_array_equal(now, before)
    plain = _compiled_model(weights)
    plain.train_on_batch(x[:4], y[:4])
    with pytest.raises(ValueError, match="at least one inner optimizer has `use_ema=True`"):
        plain.evaluate(x, y, verbose=0, callbacks=[callbacks.SwapEMAWeights()])


# ----- configs ------------------------------------------------------------------------


def test_config_round_trips_with_keras_layout():
    multi = _multi()
    config = optimizers.serialize(multi)
    assert config["class_name"] == "MultiOptimizer"
    assert config["module"] == "keras.optimizers"
    assert sorted(config["config"]) == ["loss_scale_factor", "name", "optimizer_map"]
    inner = config["config"]["optimizer_map"]
    assert (inner["module"], inner["class_name"]) == ("keras.optimizers", "OptimizerMap")
    assert sorted(inner["config"]["optimizer_map"]) == ["enc_.*", "head_kernel"]
    json.dumps(config)
    restored = optimizers.deserialize(config)
    assert isinstance(restored, optimizers.MultiOptimizer)
    assert [type(o).__name__ for o in restored.optimizers] == ["Adam", "SGD", "RMSprop"]
    assert restored.optimizers[1].momentum == 0.9
    assert optimizers.serialize(restored) == config


def test_an_optimizer_under_several_keys_stays_one_object():
    sgd = optimizers.SGD(0.1)
    multi = optimizers.MultiOptimizer(
        optimizers.OptimizerMap(sgd, {"a.*": optimizers.Adam(), "b.*": sgd})
    )
    config = optimizers.serialize(multi)
    entries = config["config"]["optimizer_map"]["config"]
    assert entries["default_optimizer"]["shared_object_id"] == id(sgd)
    assert entries["optimizer_map"]["b.*"]["shared_object_id"] == id(sgd)
    assert "shared_object_id" not in entries["optimizer_map"]["a.*"]
    restored = optimizers.deserialize(config)
    assert len(restored.optimizers) == 2
    assert restored.optimizer_map["b1"] is restored.optimizer_map.default_optimizer


def test_keras_config_loads_in_mb():
    # As Keras 3.15 writes it for MultiOptimizer(OptimizerMap(SGD(), {"x.*": Adam(0.01)})).
    def optimizer(name, shared=None, **extra):
        entry = {
            "module": "keras.optimizers",
            "class_name": name,
            "config": {"name": name.lower(), "learning_rate": 0.01, **extra},
            "registered_name": None,
        }
        return entry if shared is None else {**entry, "shared_object_id": shared}

    config = {
        "module": "keras.optimizers",
        "class_name": "MultiOptimizer",
        "config": {
            "optimizer_map": {
                "module": "keras.optimizers",
                "class_name": "OptimizerMap",
                "config": {
                    "default_optimizer": optimizer("SGD", momentum=0.5, shared=7),
                    "optimizer_map": {
                        "x.*": optimizer("Adam", amsgrad=True),
                        "y.*": optimizer("SGD", momentum=0.5, shared=7),
                    },
                },
                "registered_name": None,
            },
            "loss_scale_factor": 2.0,
            "name": "multi_optimizer",
        },
        "registered_name": None,
    }
    multi = optimizers.get(config)
    assert [type(o).__name__ for o in multi.optimizers] == ["Adam", "SGD"]
    assert multi.optimizers[0].amsgrad and multi.optimizers[1].momentum == 0.5
    assert [o.loss_scale_factor for o in multi.optimizers] == [2.0, 2.0]


def choose_by_prefix(variable):
    return _CHOSEN["adam"] if variable.path.startswith("enc") else _CHOSEN["sgd"]


_CHOSEN = {}


def test_a_function_map_round_trips_by_name_through_custom_objects():
    _CHOSEN.update(adam=optimizers.Adam(), sgd=optimizers.SGD())
    config = optimizers.serialize(optimizers.MultiOptimizer(choose_by_prefix))
    assert config["config"]["optimizer_map"]["class_name"] == "function"
    assert config["config"]["optimizer_map"]["config"] == "choose_by_prefix"
    restored = optimizers.deserialize(config, custom_objects={"choose_by_prefix": choose_by_prefix})
    assert restored.optimizer_map is choose_by_prefix
    with pytest.raises(ValueError, match=r"cannot be found.*register_keras_serializable"):
        optimizers.deserialize(config)


# ----- .keras files ---------------------------------------------------------------------


@pytest.mark.usefixtures("_trainable")
def test_saved_model_reloads_with_its_optimizer_state(tmp_path):
    x, y, weights = _fit_problem()
    model = _compiled_model(weights)
    model.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0)
    path = str(tmp_path / "multi.keras")
    model.save(path)
    with (
        zipfile.ZipFile(path) as archive,
        archive.open("model.weights.h5") as raw,
        h5py.File(raw) as store,
    ):
        assert sorted(store["optimizer"]) == ["optimizers", "vars"]
        assert sorted(store["optimizer/optimizers"]) == ["adam", "sgd"]
        assert len(store["optimizer/vars"]) == len(model.optimizer.variables)
    loaded = mb_saving.load_model(path)
    assert isinstance(loaded.optimizer, optimizers.MultiOptimizer)
    assert [o.name for o in loaded.optimizer.optimizers] == ["adam", "sgd"]
    for a, b in zip(model.optimizer.variables, loaded.optimizer.variables, strict=True):
        np.testing.assert_array_equal(a.numpy(), b.numpy(), err_msg=a.path)
    # Training goes on from the same state.
    model.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0)
    loaded.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0)
    for a, b in zip(model.get_weights(), loaded.get_weights(), strict=True):
        np.testing.assert_allclose(a, b, **FIT)


_KERAS_CONTINUES = r"""
import sys
import numpy as np
import keras
folder = sys.argv[1]
data = np.load(f"{folder}/data.npz")
model = keras.saving.load_model(f"{folder}/mb.keras")
out = {f"loaded_{i}": np.asarray(v) for i, v in enumerate(model.optimizer.variables)}
model.fit(data["x"], data["y"], batch_size=4, epochs=1, shuffle=False, verbose=0)
out.update({f"w{i}": w for i, w in enumerate(model.get_weights())})
out["iterations"] = np.array([int(o.iterations) for o in model.optimizer.optimizers])
np.savez(f"{folder}/keras.npz", **out)
model.save(f"{folder}/keras.keras")
"""


@pytest.mark.usefixtures("_trainable")
def test_keras_files_interchange_both_ways(tmp_path):
    pytest.importorskip("keras", reason="Keras 3 is a test-only dependency")
    x, y, weights = _fit_problem()
    model = _compiled_model(weights)
    model.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0)
    model.save(str(tmp_path / "mb.keras"))
    np.savez(tmp_path / "data.npz", x=x, y=y)
    testing.run_keras(_KERAS_CONTINUES, str(tmp_path), backend="jax")
    found = np.load(tmp_path / "keras.npz")
    # Keras read mb's optimizer state, variable for variable.
    for i, variable in enumerate(model.optimizer.variables):
        np.testing.assert_array_equal(found[f"loaded_{i}"], variable.numpy(), err_msg=variable.path)
    assert found["iterations"].tolist() == [6, 6]
    # mb continues the same epoch and agrees with Keras; mb reads Keras's file.
    model.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0)
    for i, w in enumerate(model.get_weights()):
        np.testing.assert_allclose(w, found[f"w{i}"], **FIT)
    loaded = mb_saving.load_model(str(tmp_path / "keras.keras"))
    assert [int(o.iterations.numpy()) for o in loaded.optimizer.optimizers] == [6, 6]
    for a, b in zip(model.optimizer.variables, loaded.optimizer.variables, strict=True):
        np.testing.assert_allclose(a.numpy(), b.numpy(), **FIT, err_msg=a.path)


# ----- errors ---------------------------------------------------------------------------


def test_optimizer_map_refuses_bad_input():
    sgd = optimizers.SGD()
    with pytest.raises(TypeError, match=r"default_optimizer must be a Keras Optimizer.*'sgd'"):
        optimizers.OptimizerMap("sgd")
    with pytest.raises(TypeError, match=r"optimizer_map must be a dictionary.*list"):
        optimizers.OptimizerMap(sgd, [("a", sgd)])
    optimizer_map = optimizers.OptimizerMap(sgd)
    with pytest.raises(ValueError, match=r"key must be a string.*int"):
        optimizer_map[3] = optimizers.Adam()
    with pytest.raises(ValueError, match=r"optimizer must be a Keras Optimizer.*key 'a'.*'adam'"):
        optimizer_map["a"] = "adam"
    with pytest.raises(ValueError, match=r"not a valid regular expression.*re.escape"):
        optimizer_map["dense("] = optimizers.Adam()
    optimizer_map["a"] = optimizers.Adam()
    with pytest.raises(ValueError, match=r"'a' already exists.*del optimizer_map"):
        optimizer_map["a"] = optimizers.Adam()
    with pytest.raises(TypeError, match="looked up by variable path"):
        optimizer_map[0]
    with pytest.raises(TypeError, match="no string `path`"):
        optimizer_map(np.zeros(2))


def test_overlapping_patterns_name_the_variable_and_the_patterns():
    optimizer_map = optimizers.OptimizerMap(optimizers.SGD())
    optimizer_map[".*kernel.*"] = optimizers.Adam()
    optimizer_map[".*dense.*"] = optimizers.RMSprop()
    with pytest.raises(ValueError, match=r"Multiple optimizers assigned to variable dense/kernel"):
        optimizer_map["dense/kernel"]
    optimizer_map["dense/kernel"] = optimizers.Lion()  # an exact key settles it
    assert type(optimizer_map["dense/kernel"]).__name__ == "Lion"


def test_wrappers_cannot_be_sub_optimizers():
    sgd = optimizers.SGD()
    wrapped = optimizers.LossScaleOptimizer(optimizers.SGD())
    multi = optimizers.MultiOptimizer(optimizers.OptimizerMap(sgd))
    optimizer_map = optimizers.OptimizerMap(sgd)
    with pytest.raises(ValueError, match=r"optimizer cannot be LossScaleOptimizer.*wrap the whole"):
        optimizer_map[".*"] = wrapped
    with pytest.raises(ValueError, match="optimizer cannot be MultiOptimizer"):
        optimizer_map[".*"] = multi
    with pytest.raises(ValueError, match="optimizer cannot be MultiOptimizer"):
        optimizers.OptimizerMap(multi)
    variable = mb_ops.Variable([1.0], name="w")
    with pytest.raises(ValueError, match=r"LossScaleOptimizer cannot be used inside a Multi.*'w'"):
        optimizers.MultiOptimizer(lambda v: wrapped).build([variable])
    with pytest.raises(ValueError, match="MultiOptimizer cannot be used inside a MultiOptimizer"):
        optimizers.MultiOptimizer(lambda v: multi).build([variable])


def test_multi_optimizer_refuses_bad_input():
    with pytest.raises(TypeError, match=r"OptimizerMap or a function.*SGD"):
        optimizers.MultiOptimizer(optimizers.SGD())
    with pytest.raises(TypeError, match=r"OptimizerMap or a function.*dict"):
        optimizers.MultiOptimizer({".*": optimizers.SGD()})
    with pytest.raises(TypeError, match="learning_rate"):
        optimizers.MultiOptimizer(optimizers.OptimizerMap(optimizers.SGD()), learning_rate=0.1)
    with pytest.raises(ValueError, match="loss_scale_factor"):
        optimizers.MultiOptimizer(optimizers.OptimizerMap(optimizers.SGD()), -1.0)
    variable = mb_ops.Variable([1.0], name="w")
    with pytest.raises(ValueError, match=r"Optimizer for variable 'w' is not an Optimizer.*'adam'"):
        optimizers.MultiOptimizer(lambda v: "adam").build([variable])


def test_learning_rate_lives_on_the_sub_optimizers():
    multi = optimizers.MultiOptimizer(optimizers.OptimizerMap(optimizers.SGD()))
    with pytest.raises(AttributeError, match="cannot be accessed on a MultiOptimizer"):
        multi.learning_rate  # noqa: B018
    with pytest.raises(AttributeError, match="cannot be set on a MultiOptimizer"):
        multi.learning_rate = 0.1
    assert not hasattr(multi, "learning_rate")


def test_a_sub_optimizer_built_on_other_variables_is_refused():
    sgd = optimizers.SGD()
    sgd.build([mb_ops.Variable([1.0], name="elsewhere")])
    multi = optimizers.MultiOptimizer(optimizers.OptimizerMap(sgd))
    with pytest.raises(ValueError, match=r"'sgd.*' was already built on other variables"):
        multi.build([mb_ops.Variable([1.0], name="w")])


def test_apply_without_variables_needs_a_built_optimizer():
    multi = optimizers.MultiOptimizer(optimizers.OptimizerMap(optimizers.SGD()))
    with pytest.raises(ValueError, match="must already be built"):
        multi.apply([ops.ones((1,))])


# ----- legacy ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["Adagrad", "Adam", "Ftrl", "RMSprop", "SGD", "Optimizer"])
def test_legacy_optimizers_raise_and_name_the_replacement(name):
    cls = getattr(optimizers.legacy, name)
    with pytest.raises(ImportError, match=rf"legacy\.{name}` is not supported in Keras 3") as info:
        cls(learning_rate=0.01)
    assert f"Use `keras.optimizers.{name}` instead" in str(info.value)
    assert "tf_keras" in str(info.value)


@pytest.mark.usefixtures("_trainable")
def test_an_overflowing_step_in_fit_changes_nothing_but_the_scale(foreach_calls):
    # Under a LossScaleOptimizer the sub-optimizers must not update in place (torch's
    # multi-tensor kernels): the step's result is selected afterwards with ops.where.
    calls, available = foreach_calls
    x, _, weights = _fit_problem()
    y = np.full((12, 1), 100.0, "float32")  # a large loss: times the scale, it overflows
    model = _compiled_model(weights)
    model.fit(x, y, batch_size=12, epochs=1, verbose=0)
    # The plain MultiOptimizer's SGD and Adam each run their rule on the kernels.
    assert len(calls) == (2 if available else 0)
    calls.clear()
    model = _model(weights)
    multi = optimizers.MultiOptimizer(optimizers.OptimizerMap(optimizers.Adam(0.1)))
    wrapped = optimizers.LossScaleOptimizer(multi, initial_scale=1e38)
    model.compile(optimizer=wrapped, loss="mse")
    model.fit(x, y, batch_size=12, epochs=1, verbose=0)
    assert calls == []
    for got, start in zip(model.get_weights(), weights, strict=True):
        np.testing.assert_array_equal(got, start)
    assert float(wrapped.dynamic_scale.numpy()) == pytest.approx(5e37, rel=1e-6)
    assert int(multi.optimizers[0].iterations.numpy()) == 0
    assert all(np.isfinite(v.numpy()).all() for v in wrapped.variables)
