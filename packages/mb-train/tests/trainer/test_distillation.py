"""`Distiller`, `LogitsDistillation`, `FeatureDistillation` against Keras 3's
``keras.distillation`` (in a subprocess, KERAS_BACKEND=jax): the same losses, the same
training history and weights, the same errors for bad arguments."""

import json
import textwrap

import numpy as np
import pytest

import mb_layers
from mb_layers import Input, initializers, layers
from mb_ops import testing
from mb_train import distillation, losses, optimizers
from mb_train.distillation import Distiller, FeatureDistillation, LogitsDistillation
from mb_train.models import Functional

# The same float32 computations in Keras and mb: they differ by rounding only.
KERAS = {"rtol": 1e-5, "atol": 1e-6}

_RUN = textwrap.dedent(
    """
    import json, sys
    import numpy as np
    {imports}
    rng = np.random.default_rng(0)
    x = rng.normal(size=(32, 4)).astype("float32")
    y = rng.integers(0, 3, size=(32,))
    t = rng.normal(size=(5, 3)).astype("float32")
    s = rng.normal(size=(5, 3)).astype("float32")
    D = distillation
    out = {{"losses": [
        float(D.LogitsDistillation().compute_loss(t, s)),
        float(D.LogitsDistillation(2.0, losses.KLDivergence()).compute_loss(t, s)),
        float(D.LogitsDistillation(4.0, "categorical_crossentropy").compute_loss(t, s)),
        float(D.LogitsDistillation(2.0, [losses.KLDivergence(), None])
              .compute_loss([t, s], [s, t])),
        float(D.FeatureDistillation().compute_loss(t, s)),
        float(D.FeatureDistillation("cosine_similarity").compute_loss(t, s)),
    ]}}

    def mlp(name):
        i = Input((4,))
        init = initializers.GlorotUniform
        h = layers.Dense(16, "relu", name=name + "_hidden", kernel_initializer=init(seed=1))(i)
        o = layers.Dense(3, name=name + "_out", kernel_initializer=init(seed=2))(h)
        return Model(i, o, name=name)

    teacher, student = mlp("teacher"), mlp("student")
    # Weights from NumPy: seeded initializers give other numbers on torch (mb's random
    # bits are not torch.Generator's), and the test compares against Keras on jax.
    for m in (teacher, student):
        m.set_weights([rng.normal(scale=0.5, size=w.shape).astype("float32")
                       for w in m.get_weights()])
    distiller = D.Distiller(
        teacher,
        student,
        [D.LogitsDistillation(temperature=2.0),
         D.FeatureDistillation("mse", "teacher_hidden", "student_hidden")],
        distillation_loss_weights=[1.0, 0.5],
        student_loss_weight=0.3,
    )
    distiller.compile(
        optimizer=optimizers.SGD(0.05),
        loss=losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )
    history = distiller.fit(x, y, epochs=2, batch_size=8, shuffle=False, verbose=0)
    out["history"] = history.history
    out["student"] = [w.tolist() for w in student.get_weights()]
    out["teacher_trainable"] = teacher.trainable
    out["counts"] = [len(distiller.trainable_variables), len(distiller.non_trainable_variables)]
    config = distiller.get_config()
    out["config_keys"] = sorted(config)
    out["loss_configs"] = config["distillation_losses"]
    print(json.dumps(out))
    """
)

_KERAS_IMPORTS = (
    "import keras\n"
    "from keras import Input, Model, distillation, initializers, layers, losses, optimizers"
)


def _keras_side(tmp_path):
    pytest.importorskip("keras", reason="Keras 3 is a test-only dependency")
    script = _RUN.format(imports=_KERAS_IMPORTS)
    return testing.keras_json(script, KERAS_HOME=str(tmp_path / "keras"))


def _mb_side():
    namespace = {
        "Input": Input,
        "Model": Functional,
        "distillation": distillation,
        "initializers": initializers,
        "layers": layers,
        "losses": losses,
        "optimizers": optimizers,
    }
    code = _RUN.format(imports="").replace("print(json.dumps(out))", "")
    exec(compile(code, "<mb distillation>", "exec"), namespace)
    return namespace["out"], namespace["distiller"]


def test_distillation_matches_keras(tmp_path):
    keras_side = _keras_side(tmp_path)
    mine, distiller = _mb_side()
    np.testing.assert_allclose(mine["losses"], keras_side["losses"], **KERAS)
    assert sorted(mine["history"]) == sorted(keras_side["history"])
    for key, values in keras_side["history"].items():
        np.testing.assert_allclose(mine["history"][key], values, **KERAS, err_msg=key)
    for w, theirs in zip(mine["student"], keras_side["student"], strict=True):
        np.testing.assert_allclose(w, theirs, **KERAS)
    assert mine["teacher_trainable"] is keras_side["teacher_trainable"] is False
    assert mine["counts"] == keras_side["counts"]
    assert mine["config_keys"] == keras_side["config_keys"]
    assert mine["loss_configs"] == keras_side["loss_configs"]
    # The config rebuilds a distiller that predicts as this one.
    again = Distiller.from_config(json.loads(json.dumps(distiller.get_config())))
    x = np.random.default_rng(3).normal(size=(4, 4)).astype("float32")
    again.student.set_weights(distiller.student.get_weights())
    np.testing.assert_allclose(
        np.asarray(again.predict(x, verbose=0)), np.asarray(distiller.predict(x, verbose=0))
    )


def _pair():
    def mlp(width):
        inp = mb_layers.Input((4,))
        hidden = mb_layers.layers.Dense(width, name="hidden")(inp)
        return Functional(inp, mb_layers.layers.Dense(3, name="out")(hidden))

    return mlp(8), mlp(4)


def test_bad_arguments_are_refused_with_what_was_received():
    teacher, student = _pair()
    with pytest.raises(ValueError, match=r"between 0.0 and 1.0, received 1.5"):
        Distiller(teacher, student, LogitsDistillation(), student_loss_weight=1.5)
    with pytest.raises(ValueError, match=r"distillation_loss_weights \(1\) must match .*\(2\)"):
        Distiller(teacher, student, [LogitsDistillation(), LogitsDistillation()], [1.0])
    with pytest.raises(ValueError, match="cannot be None"):
        Distiller(teacher, student, None)
    with pytest.raises(ValueError, match=r"In student model: .*'missing'"):
        Distiller(teacher, student, FeatureDistillation(student_layer_name="missing"))
    with pytest.raises(ValueError, match="temperature must be positive, received -1"):
        LogitsDistillation(temperature=-1)
    with pytest.raises(ValueError, match="at least one loss that is not None"):
        FeatureDistillation(loss=[None, None])
    wide = Functional(
        inp := mb_layers.Input((4,)), mb_layers.layers.Dense(5)(inp)
    )  # 5 outputs, not 3
    with pytest.raises(ValueError, match=r"output shapes are incompatible"):
        Distiller(teacher, wide, LogitsDistillation())
    distiller = Distiller(teacher, student, LogitsDistillation())
    with pytest.raises(ValueError, match="'loss' cannot be None"):
        distiller.compile(optimizer="sgd")
