"""`Progbar` and the interactive-logging switches (``keras.utils``)."""

import json
import logging
import re

import numpy as np
import pytest

from mb_train import utils


class _Out:
    def __init__(self, capsys):
        self.capsys = capsys
        self.text = ""

    def getvalue(self):
        self.text += self.capsys.readouterr().out
        return self.text


@pytest.fixture
def stdout(capsys):
    yield _Out(capsys)
    utils.enable_interactive_logging()


def test_averaged_and_stateful_metrics_follow_keras_rules(stdout):
    losses = [4.0, 2.0, 1.0, 0.5]
    bar = utils.Progbar(8, stateful_metrics=["acc"], verbose=1)
    # Steps advance by 2, 1, 3, 2: an averaged value counts once per step advanced.
    for current, loss, acc in zip([2, 3, 6, 8], losses, [0.1, 0.2, 0.3, 0.4], strict=True):
        bar.update(current, values=[("loss", loss), ("acc", acc)])
    expected = np.average(losses, weights=[2, 1, 3, 2])
    assert bar.average("loss") == pytest.approx(expected, rel=1e-12)
    assert bar.average("acc") == pytest.approx(0.4)
    last = stdout.getvalue().strip().splitlines()[-1]
    assert last.startswith("8/8 [====================]")
    assert f"loss: {expected:.4f}" in last and "acc: 0.4000" in last


def test_stateless_metrics_lists_the_averaged_names_instead(stdout):
    bar = utils.Progbar(4, stateless_metrics=["loss"], verbose=0)
    assert bar.stateless_metrics == {"loss"} and bar.stateful_metrics is None
    for current, loss, acc in zip([1, 2, 4], [4.0, 2.0, 1.0], [0.1, 0.2, 0.3], strict=True):
        bar.update(current, values=[("loss", loss), ("acc", acc)])
    assert bar.average("loss") == pytest.approx(np.average([4.0, 2.0, 1.0], weights=[1, 1, 2]))
    assert bar.average("acc") == pytest.approx(0.3)  # not listed: shown as given
    with pytest.raises(ValueError, match="not both"):
        utils.Progbar(4, stateful_metrics=["acc"], stateless_metrics=["loss"])


def test_verbose_2_prints_one_line_at_the_end_and_0_prints_nothing(stdout):
    bar = utils.Progbar(3, verbose=2)
    for _ in range(3):
        bar.add(1, values=[("loss", 1.0)])
    lines = stdout.getvalue().strip().splitlines()
    assert len(lines) == 1 and re.match(r"3/3 - \d+s - \d+(us|ms|s)/step - loss: 1\.0000", lines[0])
    quiet = utils.Progbar(3, verbose=0)
    quiet.update(3, values=[("loss", 2.0)])
    assert len(stdout.getvalue().strip().splitlines()) == 1


def test_unknown_target_and_bad_target(stdout):
    bar = utils.Progbar(None, verbose=1)
    bar.update(5, finalize=True)
    assert "5/Unknown" in stdout.getvalue()
    with pytest.raises(ValueError, match="target must be an int"):
        utils.Progbar(2.5)


def test_disabling_interactive_logging_sends_progress_to_the_logger(stdout, caplog):
    utils.disable_interactive_logging()
    assert not utils.is_interactive_logging_enabled()
    with caplog.at_level(logging.INFO, logger="mb"):
        utils.Progbar(2, verbose=2).update(2, values=[("loss", 0.25)])
    assert stdout.getvalue() == ""
    assert any("loss: 0.2500" in record.getMessage() for record in caplog.records)
    utils.enable_interactive_logging()
    assert utils.is_interactive_logging_enabled()


def test_config_reads_and_sets_values_as_attributes_and_items():
    config = utils.Config(learning_rate=0.1)
    config.seed = 123
    config["momentum"] = 0.9
    assert config.learning_rate == 0.1 and config["seed"] == 123 and config.momentum == 0.9
    assert list(config) == ["learning_rate", "momentum", "seed"] and len(config) == 3
    assert "seed" in config and config.get("missing", 7) == 7
    with pytest.raises(AttributeError, match="Did you mean 'momentum'"):
        _ = config.momentun


def test_frozen_config_refuses_every_change_until_unfrozen():
    config = utils.Config(seed=1)
    config.freeze()
    assert config.frozen
    for change in (
        lambda: setattr(config, "seed", 2),
        lambda: config.__setitem__("other", 3),
        lambda: config.update(seed=4),
        lambda: config.pop("seed"),
        lambda: config.__delitem__("seed"),
    ):
        with pytest.raises(ValueError, match="frozen"):
            change()
    assert config.as_dict() == {"seed": 1}
    config.unfreeze()
    config.seed = 5
    assert config.seed == 5 and not config.frozen


def test_config_round_trips_through_json_and_as_dict_is_a_copy():
    config = utils.Config(optimizer="adam", layers=[32, 16])
    assert json.loads(config.to_json()) == {"optimizer": "adam", "layers": [32, 16]}
    plain = config.as_dict()
    plain["optimizer"] = "sgd"
    assert config.optimizer == "adam"
    assert utils.Config(**json.loads(config.to_json())).as_dict() == config.as_dict()
