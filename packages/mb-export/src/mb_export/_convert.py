"""Export on another backend: through a ``.keras`` file, in a subprocess.

A backend that cannot write a format itself (jax has no ONNX exporter, torch no
TF graph) still exports: the model is saved as ``.keras``, and a Python
subprocess with ``MB_BACKEND`` set to a backend that can (``_routes.CONVERTERS``)
loads it and writes the artifact. ``mb export`` uses the same path.

Run as a module, this file is that subprocess::

    MB_BACKEND=torch python -m mb_export._convert model.keras --format onnx --out m.onnx
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
import tempfile

import mb_saving
from mb_export import _routes, _signature
from mb_ops import backends

_CHILD = "MB_EXPORT_CONVERTING"


def installed_backends():
    return {
        name
        for name, descriptor in backends.available_backends().items()
        if descriptor.engine_installed()
    }


def pick_backend(format, exclude=()):
    """The first installed backend that writes `format` itself (None if none is)."""
    installed = installed_backends()
    for name in _routes.CONVERTERS[format]:
        if name in installed and name not in exclude:
            return name
    return None


def _refusal(backend, format, detail):
    return (
        f"The {backend} backend cannot write format={format!r} itself "
        f"({_routes.describe_native(backend)}), {detail}. Pairs that work in-process: "
        f"{_routes.pairs_that_work()}."
    )


def custom_classes(model):
    """The classes of `model` and its layers that are not mb's own (the conversion
    subprocess must import them to load the .keras file)."""
    found = {}
    for layer in model._flatten_layers(include_self=True, recursive=True):
        cls = type(layer)
        package = cls.__module__.split(".")[0]
        if package != "mb" and not package.startswith("mb_"):
            found.setdefault(f"{cls.__module__}:{cls.__qualname__}", (layer, cls))
    return found


def _check_importable(classes, backend, format, target):
    for layer, cls in classes.values():
        if cls.__module__ == "__main__" or "<locals>" in cls.__qualname__:
            where = "the main script" if cls.__module__ == "__main__" else "a function"
            raise NotImplementedError(
                _refusal(
                    backend,
                    format,
                    f"and converting on the {target} backend loads the model from a .keras "
                    f"file in a subprocess, which cannot import the class of layer "
                    f"'{layer.name}' ({cls.__qualname__}, defined in {where}). Move the class "
                    "to a module the subprocess can import (on sys.path), or export from a "
                    f"script that runs with MB_BACKEND={target}",
                )
            )


def through_keras_file(model, filepath, format, arguments, backend, verbose=True, **options):
    """Writes `format` on another backend: saves `model` as .keras, converts in a subprocess.

    The subprocess imports the modules of the model's own classes (custom layers)
    before loading the file.
    """
    if os.environ.get(_CHILD):
        raise NotImplementedError(_refusal(backend, format, "and this is already a conversion"))
    target = pick_backend(format, exclude={backend})
    if target is None:
        wanted = " or ".join(_routes.CONVERTERS[format])
        raise NotImplementedError(
            _refusal(backend, format, f"and no backend that can ({wanted}) is installed")
        )
    classes = custom_classes(model)
    _check_importable(classes, backend, format, target)
    try:
        json.dumps(options)
    except TypeError as error:
        raise TypeError(
            f"Exporting {format} from the {backend} backend runs on the {target} backend in a "
            f"subprocess, so the export options must be JSON values. Received: {options!r}."
        ) from error
    with tempfile.TemporaryDirectory(prefix="mb-export-") as folder:
        keras_path = os.path.join(folder, "model.keras")
        try:
            model.save(keras_path)
        except Exception as error:
            raise NotImplementedError(
                _refusal(
                    backend,
                    format,
                    f"and converting on the {target} backend goes through a .keras file, but "
                    f"saving '{model.name}' failed ({type(error).__name__}: {error}). Export "
                    f"with MB_BACKEND={target}, or make the model serializable (get_config, "
                    "register_keras_serializable)",
                )
            ) from error
        run_conversion(
            keras_path, filepath, format, target, arguments, verbose, options, sorted(classes)
        )
    if verbose:
        print(
            f"(converted on the {target} backend from a .keras file: the {backend} backend "
            f"does not write {format} itself)"
        )
    return filepath


def run_conversion(
    keras_path,
    filepath,
    format,
    backend,
    arguments=None,
    verbose=True,
    options=None,
    custom_classes=(),
):
    """Runs ``python -m mb_export._convert`` with ``MB_BACKEND=backend``.

    `custom_classes` (``"module:qualname"``) are imported there and passed to the
    loader as custom objects.

    Raises:
        RuntimeError: the conversion failed; the message ends with its error.
    """
    command = [sys.executable, "-m", "mb_export._convert", os.fspath(keras_path)]
    command += ["--format", format, "--out", os.fspath(filepath)]
    if arguments is not None:
        command += ["--input-signature", json.dumps(_signature.to_json(arguments))]
    if options:
        command += ["--options", json.dumps(options)]
    for name in custom_classes:
        command += ["--custom-class", name]
    if not verbose:
        command.append("--quiet")
    env = {k: v for k, v in os.environ.items() if k != "KERAS_BACKEND"}
    env.update(MB_BACKEND=backend, **{_CHILD: "1"})
    result = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        lines = [line for line in result.stderr.strip().splitlines() if line.strip()]
        raise RuntimeError(
            f"Converting '{keras_path}' to {format} on the {backend} backend failed:\n"
            + "\n".join(lines[-15:])
        )
    if verbose and result.stdout:
        print(result.stdout, end="")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m mb_export._convert")
    parser.add_argument("model")
    parser.add_argument("--format", required=True, choices=_routes.FORMATS)
    parser.add_argument("--out", required=True)
    parser.add_argument("--input-signature", default=None)
    parser.add_argument("--options", default="{}")
    parser.add_argument("--custom-class", action="append", default=[])
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    from mb_export._export import export_model  # _export imports this module

    custom_objects = {}
    for name in args.custom_class:
        module, _, qualname = name.partition(":")
        cls = importlib.import_module(module)
        for part in qualname.split("."):
            cls = getattr(cls, part)
        custom_objects[cls.__name__] = cls
        custom_objects[mb_saving.get_registered_name(cls)] = cls
    model = mb_saving.load_model(args.model, custom_objects=custom_objects or None)
    signature = None
    if args.input_signature:
        signature = _signature.from_json(json.loads(args.input_signature))
    export_model(
        model,
        args.out,
        format=args.format,
        verbose=not args.quiet,
        input_signature=signature,
        **json.loads(args.options),
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
