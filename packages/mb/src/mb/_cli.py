"""The ``mb`` command line."""

from __future__ import annotations

import argparse
import json
import os
import sys

from mb import _info, _quickstart


def _cmd_info(args: argparse.Namespace) -> int:
    info = _info.collect()
    if args.json:
        print(json.dumps(info.as_dict(), indent=2))
    else:
        print(_info.render(info))
    return 1 if info.error else 0


def _cmd_inspect(args: argparse.Namespace) -> int:
    # Reads only the archive's JSON and the HDF5 headers: no code from the file runs.
    # Imported here, not at the top: mb_saving loads the backend (layers are engine
    # modules on torch), and `mb info` must work when the configured backend is broken.
    import mb_saving

    if _export_artifact(args.file):  # SavedModel, ONNX, OpenVINO IR, LiteRT: mb_export reads it
        import mb_export

        try:
            info = mb_export.inspect_artifact(args.file)
        except (FileNotFoundError, ValueError, ImportError) as error:
            print(f"mb inspect: {error}", file=sys.stderr)
            return 2
        print(json.dumps(info, indent=2) if args.json else mb_export.format_artifact(info))
        return 0
    try:
        info = mb_saving.inspect(args.file)
    except (mb_saving.FileFormatError, FileNotFoundError, ValueError) as error:
        print(f"mb inspect: {error}", file=sys.stderr)
        return 2
    print(
        json.dumps(info, indent=2, default=str) if args.json else mb_saving.format_inspection(info)
    )
    return 0


class _VersionAction(argparse.Action):
    """``mb --version``: every installed mb package's version and the engines'."""

    def __init__(
        self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None
    ):
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        print(_info.render_versions(*_info.versions()))
        parser.exit()


def _export_artifact(path: str) -> bool:
    if os.path.isdir(path):
        return os.path.isfile(os.path.join(path, "saved_model.pb"))
    return path.lower().endswith((".onnx", ".xml", ".tflite"))


def _cmd_export(args: argparse.Namespace) -> int:
    # The conversion runs in a subprocess on a backend that writes the format.
    import mb_export._command as command

    try:
        out, backend = command.convert_file(args.model, args.format, args.out, args.backend)
    except (FileNotFoundError, ValueError, NotImplementedError, RuntimeError) as error:
        print(f"mb export: {error}", file=sys.stderr)
        return 2
    info = _input_names(out, args.format)
    print(f"Wrote {args.format} to {out} (converted on the {backend} backend).")
    print("Run it with:\n" + command.how_to_run(args.format, out, info))
    if args.check:
        import mb_saving

        model = mb_saving.load_model(args.model)
        worst = command.check_artifact(model, out, args.format)
        print(f"Checked: the {args.format} runtime matches predict (max abs diff {worst:.2e}).")
    return 0


def _input_names(path: str, format: str) -> list[str]:
    if format == "torch":
        return []
    import mb_export

    info = mb_export.inspect_artifact(path, format)  # the name may not tell the format
    signature = next(iter(info["signatures"].values()), {"inputs": []})
    return [t["name"] for t in signature["inputs"]]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mb",
        description="mb: Keras 3's API on every engine. Run `mb COMMAND --help` for a command.",
        epilog="The backend is chosen by MB_BACKEND (or KERAS_BACKEND, or ~/.mb/mb.json).",
    )
    parser.add_argument(
        "--version",
        action=_VersionAction,
        help="print the version of every installed mb package and engine, then exit",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", help="what to do")
    info = sub.add_parser("info", help="versions of mb and the engines, the backend, its devices")
    info.add_argument("--json", action="store_true", help="print the report as JSON")
    info.set_defaults(func=_cmd_info)
    _quickstart.add_parser(sub)
    inspect = sub.add_parser(
        "inspect",
        help="what a .keras, .weights.h5 or exported file holds, without running any of it",
    )
    inspect.add_argument("file", help="a .keras archive, a model folder or a .weights.h5 file")
    inspect.add_argument("--json", action="store_true", help="print the report as JSON")
    inspect.set_defaults(func=_cmd_inspect)
    export = sub.add_parser(
        "export", help="convert a .keras file to SavedModel, ONNX, OpenVINO, LiteRT or torch"
    )
    export.add_argument("model", help="a .keras file (written by mb or Keras 3)")
    export.add_argument(
        "--format",
        required=True,
        choices=("tf_saved_model", "onnx", "openvino", "litert", "torch"),
        help="the artifact to write",
    )
    export.add_argument("--out", required=True, help="the folder or file to write")
    export.add_argument("--backend", default=None, help="convert on this backend")
    export.add_argument(
        "--check", action="store_true", help="run the artifact and compare it with predict"
    )
    export.set_defaults(func=_cmd_export)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:  # bare `mb`: the help screen, not an error
        parser.print_help()
        return 0
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
