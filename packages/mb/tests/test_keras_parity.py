"""`import mb as keras`, checked against Keras 3 itself: every public name, member and
signature.

Keras (a test-only dependency) describes its own public surface in one subprocess per
test session, on the backend of this process (`keras_surface.py`, shared by every
xdist worker through a lock); mb is described in-process by the same code over the same
namespaces and instances. The tests then ask:

- every public name of every Keras namespace (discovered from Keras, not listed here)
  exists in the same mb namespace;
- every public callable has Keras's parameters: names, order, kinds and defaults
  (defaults compared by ``repr``, with object addresses removed);
- every public class has every public member Keras's has, with the same signature;
- an instance built as Keras's docs build it (a layer also called on a symbolic input)
  has every public attribute the Keras instance has.

What mb still lacks is listed in `PENDING`, each entry with the issue it waits for. A
finding not in the table fails, and so does a table entry that nothing matches any more:
strike a name from the table in the change that adds it. Where mb differs on purpose,
`DELIBERATE` says why; an entry that holds only where Keras's own surface is a backend
artefact (a `__new__`, a trainer of another shape) names its backends in `DELIBERATE_ON`,
so that the same tables hold, and are struck, on every backend.

Keys of the table:
  ``layers.AugMix``            a public name (``Variable`` for the top level)
  ``quantizers.*``             everything under a namespace (its names, members, ...)
  ``Layer.quantize``           a member, keyed by the most general public Keras class
                               that has it (so one entry covers every layer)
  ``*.transform_images``       a member, on whichever classes have it
  ``layers.Dense()``           a signature (a class's is its constructor's)
  ``Model.fit()``              a method's signature
  ``layers.Dense[instance]``   building the instance fails in mb
"""

from __future__ import annotations

import fcntl
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mb_ops import config

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("keras") is None, reason="Keras 3 is a test-only dependency"
)

_SURFACE = Path(__file__).with_name("keras_surface.py")
_spec = importlib.util.spec_from_file_location("keras_surface", _SURFACE)
surface = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(surface)

# What mb does not have yet, and the issue each entry waits for (keys: see above).
PENDING: dict[str, str] = {}

# Where mb differs from Keras on purpose, with the reason (same keys). Kept short: each
# entry is a Keras program that does not run unchanged on mb.
DELIBERATE: dict[str, str] = {
    # format= defaults to "auto" (Keras: "tf"): a tf.data.Dataset where TensorFlow is
    # installed, as Keras, else a grain dataset or an mb PyDataset, so reading a folder
    # needs no engine; audio_dataset_from_directory takes format= too (Keras: tf only).
    "utils.image_dataset_from_directory()": "format='auto' picks tf.data where installed",
    "utils.text_dataset_from_directory()": "format='auto' picks tf.data where installed",
    "utils.audio_dataset_from_directory()": "format= added; 'auto' picks tf.data",
    "utils.timeseries_dataset_from_array()": "format='auto' picks tf.data where installed",
    # Keras's lookup layers keep TensorFlow hash tables; mb keeps the vocabulary on the
    # host (get_vocabulary(), vocabulary_size(), set_vocabulary(), adapt()).
    "layers.IntegerLookup.lookup_table": "no TensorFlow hash table in mb",
    "layers.IntegerLookup.token_counts": "no TensorFlow hash table in mb",
    "layers.StringLookup.lookup_table": "no TensorFlow hash table in mb",
    "layers.StringLookup.token_counts": "no TensorFlow hash table in mb",
    # Keras's JAX trainer's own steps are stateless, `train_step(self, state, data)` (its
    # torch and TF trainers' `(self, data)`); mb has one training loop, whose steps are
    # `(self, data)` on every backend. A subclass's JAX-style `(self, state, data)` step
    # still runs (mb_train._trainer._runner adapts it); calling `super().train_step(state,
    # data)` from one does not.
    "Model.train_step()": "one trainer: (self, data) on every backend",
    "Model.test_step()": "one trainer: (self, data) on every backend",
    "Model.predict_step()": "one trainer: (self, data) on every backend",
    # Keras's Layer shows `(*args, **kwargs)` only because it defines `__new__`; mb's
    # names Keras's keyword arguments (and takes input_shape/input_dim), so every
    # Keras call still works.
    "Layer()": "mb's lists Keras's keyword arguments",
    # Keras's torch Optimizer defines `__new__` (it swaps in the torch class) and its
    # TensorFlow one `__init__(*args, **kwargs)`, so both show `(*args, **kwargs)`; mb's
    # names Keras's arguments (those of its jax, numpy and openvino Optimizer).
    "Optimizer()": "mb's lists Keras's arguments",
    # Keras's own name_scope takes `(name, caller=None, deduplicate=True,
    # override_parent=None)`; its jax and TensorFlow subclasses take them as `**kwargs`,
    # as mb's one name_scope does (it accepts the same three keywords).
    "name_scope()": "(name, **kwargs), as Keras's jax and tensorflow name_scope",
    # Keras's TensorFlow trainer runs its loop under a `tf.distribute` strategy, with a
    # knob for unrolling steps in its `tf.function`; mb has one loop on every backend and
    # distributes through `mb.distribution` (no tf.distribute strategy to return).
    "Model.distribute_strategy": "no tf.distribute strategy: mb.distribution instead",
    "Model.distribute_reduction_method": "no tf.distribute strategy: mb.distribution",
    "Model.unrolled_steps_per_execution": "one training loop, not a tf.function's",
    # Keras's TensorFlow trainer also defines a deprecated `loss()` method, which every
    # instance hides behind its `loss` attribute (Trainer.__init__ sets it); mb's models
    # have the attribute (checked on instances), so only the instance-less Distiller
    # reports it.
    "Model.loss": "Keras's tf-only loss() method is hidden by the loss attribute",
    # Keras's OpenVINO trainer keeps its compiled predict graph on the model under public
    # names (its cache, not an API); mb's one training loop keeps its compiled steps to
    # itself on every backend.
    "Model.ov_compiled_model": "the OpenVINO trainer's cache, not an API",
    "Model.ov_device": "the OpenVINO trainer's cache, not an API",
    "Model.struct_outputs": "the OpenVINO trainer's cache, not an API",
    "Model.struct_params": "the OpenVINO trainer's cache, not an API",
}

# The entries of DELIBERATE that hold on some backends only, because Keras's own surface
# differs between its backends there; on any other backend such an entry neither covers a
# finding nor counts as unused. An entry not listed holds on every backend.
DELIBERATE_ON: dict[str, tuple[str, ...]] = {
    # Only Keras's JAX trainer has `(self, state, data)` steps; its numpy and openvino
    # trainers have no train_step, and their test_step/predict_step are `(self, data)`.
    "Model.train_step()": ("jax",),
    "Model.test_step()": ("jax",),
    "Model.predict_step()": ("jax",),
    "Optimizer()": ("tensorflow", "torch"),
    "name_scope()": ("numpy", "openvino", "torch"),
    "Model.distribute_strategy": ("tensorflow",),
    "Model.distribute_reduction_method": ("tensorflow",),
    "Model.unrolled_steps_per_execution": ("tensorflow",),
    "Model.loss": ("tensorflow",),
    "Model.ov_compiled_model": ("openvino",),
    "Model.ov_device": ("openvino",),
    "Model.struct_outputs": ("openvino",),
    "Model.struct_params": ("openvino",),
}


# Keras builds its lookup layers' hash tables only where TensorFlow is installed (a
# package's own test venv may not hold it): without it, those attributes are absent in
# Keras too.
_WITH_TENSORFLOW_ONLY = {
    f"layers.{layer}.{name}"
    for layer in ("IntegerLookup", "StringLookup")
    for name in ("lookup_table", "token_counts")
}


def _deliberate() -> dict[str, str]:
    """The entries of DELIBERATE that hold on this process's backend."""
    here = config.backend()
    entries = {
        key: why for key, why in DELIBERATE.items() if here in DELIBERATE_ON.get(key, (here,))
    }
    if importlib.util.find_spec("tensorflow") is None:
        entries = {k: why for k, why in entries.items() if k not in _WITH_TENSORFLOW_ONLY}
    return entries


def _shared(root: Path, name: str, compute) -> dict:
    """`compute()`, once per test session: xdist workers share the file under a lock."""
    path = root / f"{name}.json"
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not path.exists():
            path.write_text(json.dumps(compute()))
    return json.loads(path.read_text())


def _describe_keras(workdir: Path) -> dict:
    backend = config.backend()
    out = workdir / "keras-surface.json"
    env = {**os.environ, "KERAS_BACKEND": backend, "TF_CPP_MIN_LOG_LEVEL": "3"}
    done = subprocess.run(
        [sys.executable, str(_SURFACE), "keras", str(out)],
        capture_output=True,
        text=True,
        env=env,
        cwd=workdir,  # callbacks built there may name files
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    return json.loads(out.read_text())


def _describe_mb(keras_side: dict, workdir: Path) -> dict:
    built = [label for label, got in keras_side["instances"].items() if not isinstance(got, str)]
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(workdir)
        return surface.describe("mb", list(keras_side["namespaces"]), built)


@pytest.fixture(scope="session")
def session_dir(tmp_path_factory) -> Path:
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # this session's folder, shared by its workers
    return root


@pytest.fixture(scope="session")
def keras_side(session_dir) -> dict:
    workdir = session_dir / f"keras-surface-{config.backend()}"
    workdir.mkdir(exist_ok=True)
    return _shared(session_dir, workdir.name, lambda: _describe_keras(workdir))


@pytest.fixture(scope="session")
def findings(keras_side, session_dir) -> dict[str, dict[str, str]]:
    workdir = session_dir / f"mb-surface-{config.backend()}"
    workdir.mkdir(exist_ok=True)
    return _shared(
        session_dir, workdir.name, lambda: compare(keras_side, _describe_mb(keras_side, workdir))
    )


def _label(ns: str, name: str) -> str:
    return f"{ns}.{name}" if ns else name


def _shape(members_value):
    """'callable' for a method (its signature or None), else 'attribute'."""
    return "attribute" if members_value in ("property", "attribute") else "callable"


def _sig_text(sig) -> str:
    if sig is None:
        return "(not inspectable)"
    parts = []
    for name, kind, default in sig:
        star = {"VAR_POSITIONAL": "*", "VAR_KEYWORD": "**"}.get(kind, "")
        mark = "/" if kind == "POSITIONAL_ONLY" else ("kw:" if kind == "KEYWORD_ONLY" else "")
        parts.append(f"{mark}{star}{name}" + ("" if default is None else f"={default}"))
    return "(" + ", ".join(parts) + ")"


def _owner(k: dict, labels: dict, class_id: str, member: str, fallback: str) -> str:
    """The most general public Keras class that has `member` as `class_id` has it: as a
    class member with the same signature, or as an attribute of its instance."""
    value = k["classes"].get(class_id, {}).get(member)
    for klass in reversed(k["mro"][class_id]):
        if klass not in labels:
            continue
        if value is not None and k["classes"].get(klass, {}).get(member, object()) == value:
            return labels[klass]
        instance = k["instances"].get(labels[klass])
        if value is None and isinstance(instance, dict) and member in instance["names"]:
            return labels[klass]
    return fallback


def compare(k: dict, m: dict) -> dict[str, dict[str, str]]:
    """Findings by category ('names', 'signatures', 'members', 'instances'): key -> text."""
    found = {"names": {}, "signatures": {}, "members": {}, "instances": {}}
    labels = surface.canonical_labels(k)
    mb_classes = {}  # Keras class id -> mb class id, through the canonical public name
    for ns, entries in k["namespaces"].items():
        mine = m["namespaces"].get(ns)
        for name, entry in entries.items():
            label = _label(ns, name)
            if mine is None or name not in mine:
                found["names"][label] = f"mb.{label} is missing"
                continue
            ours = mine[name]
            key = labels.get(entry.get("id"), label) + "()"
            if entry["kind"] != ours["kind"]:
                found["signatures"][key] = (
                    f"mb.{label} is a {ours['kind']}, Keras's a {entry['kind']}"
                )
                continue
            if entry["kind"] not in ("class", "function"):
                continue
            theirs = ours["sig"]
            if entry["sig"] is not None and entry["sig"] != theirs:
                found["signatures"][key] = (
                    f"mb.{label}{_sig_text(theirs)} != keras{_sig_text(entry['sig'])}"
                )
            if entry["kind"] == "class" and labels[entry["id"]] == label:
                mb_classes[entry["id"]] = ours["id"]
    for class_id, mb_id in mb_classes.items():
        label = labels[class_id]
        ours = m["classes"][mb_id]
        instance = m["instances"].get(label)
        on_instance = set(instance["names"]) if isinstance(instance, dict) else set()
        for member, value in k["classes"][class_id].items():
            owner = _owner(k, labels, class_id, member, label)
            if member not in ours and member in on_instance:
                continue  # a Keras property that mb sets on the instance
            if member not in ours:
                found["members"].setdefault(f"{owner}.{member}", f"mb.{label}.{member} is missing")
                continue
            mine = ours[member]
            if _shape(value) != _shape(mine):
                text = f"mb.{label}.{member} is {'not ' * (_shape(mine) != 'callable')}callable"
                found["signatures"].setdefault(f"{owner}.{member}()", text + ", Keras's is")
            elif _shape(value) == "callable" and value is not None:
                key = f"{owner}.{member}()"
                theirs = mine
                if theirs != value:
                    found["signatures"].setdefault(
                        key, f"mb.{label}.{member}{_sig_text(theirs)} != keras{_sig_text(value)}"
                    )
    for label, record in k["instances"].items():
        if isinstance(record, str):
            continue  # Keras itself cannot build it here
        ours = m["instances"].get(label)
        if ours is None:
            continue  # mb lacks the class: a missing name
        if isinstance(ours, str):
            found["instances"][f"{label}[instance]"] = f"mb cannot build it: {ours}"
            continue
        missing = sorted(set(record["names"]) - set(ours["names"]))
        for name in missing:
            owner = _owner(k, labels, record["type"], name, label)
            found["members"].setdefault(f"{owner}.{name}", f"mb's {label} instance lacks {name}")
    return found


def _pending_entry(key: str) -> str | None:
    """The entry of PENDING or DELIBERATE that covers `key`, if any."""
    deliberate = _deliberate()
    if key in PENDING or key in deliberate:
        return key
    for entry in [*PENDING, *deliberate]:
        if entry.endswith(".*") and (key == entry[:-2] or key.startswith(entry[:-1])):
            return entry
        if entry.startswith("*.") and key.endswith(entry[1:]):
            return entry
    return None


def _unexpected(found: dict[str, str]) -> list[str]:
    return [f"{key}: {text}" for key, text in sorted(found.items()) if not _pending_entry(key)]


def test_mb_has_every_public_name_of_keras(findings):
    assert _unexpected(findings["names"]) == []


def test_every_public_callable_has_keras_signature(findings):
    assert _unexpected(findings["signatures"]) == []


def test_every_public_class_has_keras_members(findings):
    assert _unexpected(findings["members"]) == []


def test_instances_build_as_in_keras(findings):
    assert _unexpected(findings["instances"]) == []


def test_pending_table_lists_only_what_is_missing(findings):
    used = {_pending_entry(key) for category in findings.values() for key in category}
    assert sorted(set(PENDING) - used) == [], "these have landed: strike them from PENDING"
    assert sorted(set(_deliberate()) - used) == [], "these now match Keras: strike them"


def test_deliberate_on_names_entries_and_backends():
    assert sorted(set(DELIBERATE_ON) - set(DELIBERATE)) == []
    assert set(DELIBERATE) >= _WITH_TENSORFLOW_ONLY
    backends = {"jax", "numpy", "openvino", "tensorflow", "torch"}
    assert all(set(on) <= backends for on in DELIBERATE_ON.values())
