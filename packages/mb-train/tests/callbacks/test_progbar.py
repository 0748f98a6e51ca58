"""The progress display of fit/evaluate/predict: what a user sees on a terminal,
in a log file and with interactive logging off."""

import io
import logging
import re

import numpy as np
import pytest
from rich.console import Console

import mb_layers
from mb_train import callbacks as cb
from mb_train import utils
from mb_train._progress import ProgressDisplay, format_eta, format_logs, format_per_step
from mb_train.models import Model

_LOGS = {
    "loss": 0.5,
    "accuracy": 0.25,
    "another_long_metric_name": 0.125,
    "sparse_categorical_crossentropy": 1.5,
    "sparse_top_k_categorical_accuracy": 0.75,
    "mean_absolute_error": 0.0001,
    "mean_squared_error": 2.0,
}
_STEP_AND_ETA = re.compile(r"^ ?37/100 ━+ +\d+s \d+(s|ms|us)/step ")


def _model(builtins):
    inp = mb_layers.Input((3,))
    model = Model(inp, mb_layers.layers.Dense(1)(inp))
    model.compile(optimizer=builtins["sgd"](0.05), loss=builtins["mse"]())
    return model


def _data(n=32):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, 3)).astype("float32")
    return x, (x @ np.ones((3, 1))).astype("float32")


def _drawn(display, width=80):
    """The bar as drawn now, on a console `width` columns wide."""
    probe = Console(width=width, record=True, file=io.StringIO())
    probe.print(display)
    return [line.rstrip() for line in probe.export_text().splitlines()]


def _display(width=80):
    out = io.StringIO()
    display = ProgressDisplay(interactive=True, console=Console(file=out, width=width))
    return display, out


@pytest.mark.parametrize("width", [80, 100])
def test_step_count_and_eta_stay_visible_with_many_metrics(width):
    display, _ = _display(width)
    display.start("Epoch 1/3", 100)
    display.update(1, _LOGS)
    display.update(37, _LOGS)
    lines = _drawn(display, width)
    display.finish(100, _LOGS)
    assert _STEP_AND_ETA.match(lines[0]), lines
    assert all(len(line) <= width for line in lines)
    text = " ".join(lines)
    for name in _LOGS:
        assert f"{name}: " in text
    # Metrics wrap between entries: an entry that fits the column stays on one line.
    for entry in ("- loss: 0.5000", "- another_long_metric_name: 0.1250"):
        assert any(entry in line for line in lines), lines
    assert any("- mean_absolute_error: 1.0000e-04" in line for line in lines), lines


def test_final_frame_has_the_epoch_header_elapsed_time_and_all_metrics():
    display, out = _display()
    display.start("Epoch 2/3", 100)
    display.update(50, _LOGS)
    display.finish(100, _LOGS)
    lines = out.getvalue().splitlines()
    assert lines[0] == "Epoch 2/3"
    assert re.match(r"^100/100 ━{20} \d+s \d+(s|ms|us)/step - ", lines[1]), lines
    assert all(f"{name}: " in out.getvalue() for name in _LOGS)


def test_unknown_step_count_shows_unknown_until_the_end():
    display, _ = _display()
    display.start("Epoch 1/1", None)
    display.update(5, {"loss": 1.0})
    assert _drawn(display)[0].startswith("      5/Unknown ")
    display.finish(5, {"loss": 1.0})


def test_fit_on_a_terminal_draws_one_bar_per_epoch_under_its_header(builtins, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    x, y = _data()
    out = io.StringIO()
    model = _model(builtins)
    model.fit(
        x,
        y,
        epochs=2,
        batch_size=8,
        verbose=1,
        callbacks=[cb.ProgbarLogger._writing_to(out, interactive=True)],
    )
    lines = out.getvalue().splitlines()
    assert lines[0] == "Epoch 1/2" and lines[2] == "Epoch 2/2"
    for bar in (lines[1], lines[3]):
        assert re.match(r"^4/4 ━{20} \d+s \d+(s|ms|us)/step - loss: \d", bar), bar


def test_evaluate_draws_its_bar_without_a_header(builtins, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    x, y = _data()
    out = io.StringIO()
    model = _model(builtins)
    model.evaluate(
        x,
        y,
        batch_size=8,
        verbose=1,
        callbacks=[cb.ProgbarLogger._writing_to(out, interactive=True)],
    )
    lines = out.getvalue().splitlines()
    assert len(lines) == 1 and lines[0].startswith("4/4 ━")


def test_verbose_2_prints_one_line_per_epoch(builtins):
    x, y = _data()
    out = io.StringIO()
    _model(builtins).fit(
        x, y, epochs=3, batch_size=8, verbose=2, callbacks=[cb.ProgbarLogger._writing_to(out)]
    )
    lines = out.getvalue().splitlines()
    assert len(lines) == 3
    for epoch, line in enumerate(lines, 1):
        assert re.match(rf"^Epoch {epoch}/3 - 4 steps - \d+\.\d\ds - loss: \d", line), line
    assert "━" not in out.getvalue()


def test_auto_verbosity_off_a_terminal_prints_plain_lines(builtins, capsys):
    x, y = _data()
    _model(builtins).fit(x, y, epochs=2, batch_size=8)
    printed = capsys.readouterr().out
    assert [line.split(" - ")[0] for line in printed.splitlines()] == ["Epoch 1/2", "Epoch 2/2"]
    assert "━" not in printed and "\x1b[" not in printed


def test_verbose_0_prints_nothing(builtins, capsys):
    x, y = _data()
    _model(builtins).fit(x, y, epochs=2, verbose=0)
    assert capsys.readouterr().out == ""


def test_progress_goes_to_the_logger_when_interactive_logging_is_off(builtins, capsys, caplog):
    x, y = _data()
    utils.disable_interactive_logging()
    try:
        with caplog.at_level(logging.INFO, logger="mb"):
            _model(builtins).fit(x, y, epochs=2, batch_size=8, verbose=1)
    finally:
        utils.enable_interactive_logging()
    assert capsys.readouterr().out == ""
    messages = [r.getMessage() for r in caplog.records if r.getMessage().startswith("Epoch")]
    assert len(messages) == 2 and "loss: " in messages[0]


def test_numbers_are_written_as_keras_writes_them():
    assert format_logs({"loss": 0.5, "tiny": 0.0001, "zero": 0.0, "skip": "text"}) == (
        "loss: 0.5000 - tiny: 1.0000e-04 - zero: 0.0000e+00"
    )
    assert [format_eta(s) for s in (5.7, 125, 3725)] == ["5s", "2:05", "1:02:05"]
    assert [format_per_step(s) for s in (2.0, 0.015, 0.00084)] == [
        "2s/step",
        "15ms/step",
        "840us/step",
    ]
