"""Every optimizer's update, one step and several, against a NumPy implementation."""

import numpy as np
import pytest

from mb_train import optimizers

# (id, class, constructor kwargs, NumPy rule name, its hyperparameters, rtol)
CASES = [
    ("sgd", optimizers.SGD, {}, "sgd", {}, 1e-5),
    ("sgd_momentum", optimizers.SGD, {"momentum": 0.9}, "sgd", {"momentum": 0.9}, 1e-5),
    (
        "sgd_nesterov",
        optimizers.SGD,
        {"momentum": 0.8, "nesterov": True},
        "sgd",
        {"momentum": 0.8, "nesterov": True},
        1e-5,
    ),
    ("adam", optimizers.Adam, {}, "adam", {}, 1e-5),
    ("adam_amsgrad", optimizers.Adam, {"amsgrad": True}, "adam", {"amsgrad": True}, 1e-5),
    (
        "adam_betas",
        optimizers.Adam,
        {"beta_1": 0.5, "beta_2": 0.9, "epsilon": 1e-3},
        "adam",
        {"beta_1": 0.5, "beta_2": 0.9, "epsilon": 1e-3},
        1e-5,
    ),
    ("rmsprop", optimizers.RMSprop, {}, "rmsprop", {}, 1e-5),
    (
        "rmsprop_centered_momentum",
        optimizers.RMSprop,
        {"centered": True, "momentum": 0.5},
        "rmsprop",
        {"centered": True, "momentum": 0.5},
        1e-5,
    ),
    ("rmsprop_momentum", optimizers.RMSprop, {"momentum": 0.3}, "rmsprop", {"momentum": 0.3}, 1e-5),
    ("adadelta", optimizers.Adadelta, {"learning_rate": 1.0}, "adadelta", {}, 1e-5),
    ("adagrad", optimizers.Adagrad, {}, "adagrad", {}, 1e-5),
    ("adamax", optimizers.Adamax, {}, "adamax", {}, 1e-5),
    ("nadam", optimizers.Nadam, {}, "nadam", {}, 1e-5),
    ("lamb", optimizers.Lamb, {}, "lamb", {}, 1e-5),
    ("lion", optimizers.Lion, {}, "lion", {}, 1e-5),
    ("ftrl", optimizers.Ftrl, {}, "ftrl", {}, 1e-5),
    (
        "ftrl_regularized",
        optimizers.Ftrl,
        {
            "l1_regularization_strength": 0.01,
            "l2_regularization_strength": 0.02,
            "l2_shrinkage_regularization_strength": 0.03,
            "beta": 0.1,
            "learning_rate_power": -0.3,
        },
        "ftrl",
        {
            "l1_regularization_strength": 0.01,
            "l2_regularization_strength": 0.02,
            "l2_shrinkage_regularization_strength": 0.03,
            "beta": 0.1,
            "learning_rate_power": -0.3,
        },
        1e-5,
    ),
    ("adafactor", optimizers.Adafactor, {}, "adafactor", {}, 1e-5),
    ("muon", optimizers.Muon, {}, "muon", {}, 1e-4),
    (
        "muon_plain",
        optimizers.Muon,
        {"nesterov": False, "rms_rate": None, "ns_steps": 3},
        "muon",
        {"nesterov": False, "rms_rate": None, "ns_steps": 3},
        1e-4,
    ),
    ("schedule_free", optimizers.ScheduleFreeAdamW, {}, "schedule_free_adamw", {}, 1e-5),
    (
        "schedule_free_warmup",
        optimizers.ScheduleFreeAdamW,
        {"warmup_steps": 3},
        "schedule_free_adamw",
        {"warmup_steps": 3},
        1e-5,
    ),
]

# Keras's defaults the NumPy driver needs to know (weight decay on by default).
_DEFAULT_DECAY = {"muon": 0.004}


def _reference(h, case, params, grads, lr):
    _, _, kwargs, rule, hyper, _ = case
    decay = kwargs.get("weight_decay", _DEFAULT_DECAY.get(rule))
    out, _ = h.ref.run(
        getattr(h.ref, rule), params, grads, learning_rate=lr, weight_decay=decay, **hyper
    )
    return out


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("steps", [1, 4])
def test_update_matches_numpy(h, case, steps):
    _, cls, kwargs, _, _, rtol = case
    lr = kwargs.get("learning_rate", 0.05)
    params, grads = h.make_problem(shapes=((3, 4), (4,), (2, 3, 2)), steps=steps)
    optimizer = cls(**{**kwargs, "learning_rate": lr})
    got, _ = h.run_mb(optimizer, params, grads)
    expected = _reference(h, case, params, grads, lr)
    for g, e in zip(got, expected, strict=True):
        np.testing.assert_allclose(g, e, rtol=rtol, atol=1e-6)
    assert int(optimizer.iterations.numpy()) == steps


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_update_inside_a_compiled_step_matches_numpy(h, case):
    if not h.trainable:
        pytest.skip(f"the {h.backend} backend does not compile training steps")
    _, cls, kwargs, _, _, rtol = case
    lr = kwargs.get("learning_rate", 0.05)
    params, grads = h.make_problem(shapes=((4, 3), (3,)), steps=3, seed=1)
    optimizer = cls(**{**kwargs, "learning_rate": lr})
    got, _ = h.run_compiled(optimizer, params, grads)
    expected = _reference(h, case, params, grads, lr)
    for g, e in zip(got, expected, strict=True):
        np.testing.assert_allclose(g, e, rtol=rtol, atol=1e-6)
    assert int(optimizer.iterations.numpy()) == 3


def test_muon_leaves_embeddings_and_excluded_layers_to_adamw(h):
    params, grads = h.make_problem(shapes=((4, 3), (4, 3), (4, 3)), steps=2)
    names = ["token_embedding", "head", "body"]
    optimizer = optimizers.Muon(learning_rate=0.05, exclude_layers=["hea+d"])
    got, _ = h.run_mb(optimizer, params, grads, names=names)
    # Muon's default weight decay (0.004, both parts) applies to all three.
    adam_like, _ = h.ref.run(
        h.ref.adam, params[:2], [g[:2] for g in grads], learning_rate=0.05, weight_decay=0.004
    )
    muon_like, _ = h.ref.run(
        h.ref.muon, params[2:], [g[2:] for g in grads], learning_rate=0.05, weight_decay=0.004
    )
    for g, e in zip(got, adam_like + muon_like, strict=True):
        np.testing.assert_allclose(g, e, rtol=1e-4, atol=1e-6)
    # Only the Muon-updated matrix has no velocity slot.
    names_of = [v.name for v in optimizer.variables]
    assert "body_velocity" not in names_of and "head_velocity" in names_of


def test_lion_momentum_slot_matches_numpy(h):
    # Lion's step is a sign, so check its momentum directly too.
    params, grads = h.make_problem(shapes=((3, 4),), steps=4)
    optimizer = optimizers.Lion(learning_rate=0.05, beta_1=0.8, beta_2=0.9)
    h.run_mb(optimizer, params, grads)
    state = {}
    p = params[0].astype("float64")
    for step, (g,) in enumerate(grads):
        p = h.ref.lion(p, g.astype("float64"), state, step + 1, 0.05, beta_1=0.8, beta_2=0.9)
    np.testing.assert_allclose(optimizer._momentums[0].numpy(), state["m"], rtol=1e-5, atol=1e-6)
