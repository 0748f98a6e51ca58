"""`fit`, `evaluate`, `predict` and the ``*_on_batch`` methods, written once."""

import itertools
import operator
import warnings

import numpy as np

from mb_data import (
    EpochIterator,
    class_weight_to_sample_weights,
    train_validation_split,
    unpack_x_y_sample_weight,
)
from mb_graph import KerasTensor, is_keras_tensor, tree
from mb_layers._tracking import structure_version
from mb_ops import StatelessScope, backends, config, filter_traceback, ops
from mb_ops.dtypes import standardize_dtype
from mb_train._progress import is_interactive
from mb_train._trainer import _distributed, _memory, _runner
from mb_train.callbacks._callback import logs_to_floats
from mb_train.callbacks._callback_list import CallbackList

_TRAINABLE = operator.attrgetter("trainable")


def _to_numpy(x):
    return np.asarray(backends.backend_module("core").convert_to_numpy(x))


def _convert_batch(data):
    def convert(x):
        if x is None:
            return None
        if isinstance(x, np.ndarray) and x.dtype == np.float64:
            x = x.astype("float32")
        return ops.convert_to_tensor(x)

    return tree.map_structure(convert, data)


def _fed_by(function, host_arrays):
    """`function` fed by an `EpochIterator`: mb's own step functions take its batches as
    they come (NumPy arrays where it hands them over so, `host_arrays`, for the compiled
    step to place); a function the user set gets them as tensors."""
    if not host_arrays or getattr(function, "_mb_runner", None) is not None:
        return function
    return lambda batches: function([EpochIterator.place(batch) for batch in batches])


def _joiner():
    """``join(*batches)``: one output's batches as one NumPy array, joined by the engine
    where it can (one call instead of a conversion per batch)."""
    to_numpy = backends.backend_module("core").convert_to_numpy
    concatenate = backends.lookup("training", "concatenate_outputs")

    def join(*batches):
        if concatenate is not None:
            joined = concatenate(batches)
            if joined is not None:
                return joined
        return np.concatenate([np.asarray(to_numpy(v)) for v in batches], axis=0)

    return join


_NO_LOSS = (
    "{method}() needs a loss to minimize, but the model was compiled without `loss` and "
    "adds none with `add_loss`. Pass one to compile, e.g. "
    "model.compile(optimizer='adam', loss='mse'), or override `compute_loss` or "
    "`train_step`."
)
_NOTHING_TO_EVALUATE = (
    "{method}() has nothing to compute: the model was compiled without `loss` or "
    "`metrics` and adds no loss with `add_loss`. Pass them to compile, e.g. "
    "model.compile(loss='mse', metrics=['mae']), or override `compute_loss` or "
    "`test_step`."
)


def _resolve_verbose(verbose):
    if not _distributed.is_chief():
        return 0  # one progress display per run: process 0's
    if verbose == "auto":
        return 1 if is_interactive() else 2
    return int(verbose)


class TrainerMixin:
    """The training loop of `Model`; the step itself is `StepRunner`'s."""

    def _init_trainer(self):
        self.optimizer = None
        self.loss = None
        self.history = None
        self.stop_training = False
        self.compiled = False
        self._compile_loss = None
        self._compile_metrics = None
        self._loss_tracker = None
        self._runners = {}
        self.train_function = None
        self.test_function = None
        self.predict_function = None
        self._trainable_cache = None
        self._run_eagerly = False
        self._jit_compile = "auto"
        self._steps_per_execution = 1

    def _assert_compiled(self, method):
        if not self.compiled:
            raise RuntimeError(
                f"You must call `compile()` before `{method}()`. Example: "
                "model.compile(optimizer='adam', loss='mse')."
            )

    # ----- building before the first step ---------------------------------------------

    def _placeholder_predictions(self, x):
        """The model's outputs on placeholders shaped like `x` (no engine runs: no
        per-op compilation on jax), or None when the model cannot run symbolically."""
        if not self.built:
            return None  # the first eager call creates the variables
        try:
            specs = _specs(x)
            kwargs = {"training": False} if self._call_has_training_arg else {}
            return self.compute_output_spec(specs, **kwargs)
        except Exception:
            return None

    def _check_loss(self, x, y, y_pred, sample_weight):
        """Computes the loss once before any step: symbolically when the predictions
        are symbolic (nothing runs), else, or when a loss cannot run on placeholders,
        on the real batch."""
        if tree.flatten(y_pred) and all(is_keras_tensor(p) for p in tree.flatten(y_pred)):
            try:
                self._compile_loss.check(_specs(y), y_pred, _specs(sample_weight))
                return
            except Exception:
                y_pred = self._forward(x, training=False)
        self._compile_loss.check(y, y_pred, sample_weight)

    def _overrides(self, name):
        """Whether the model replaces mb's own `name` (a method of `Model`: the most
        basic class of the model's method resolution order that mixes this one in;
        other mixins of `Model`, such as quantization's, may stand between)."""
        trainers = [c for c in type(self).__mro__ if issubclass(c, TrainerMixin)]
        own = getattr(trainers[-2], name, None)  # trainers[-1] is TrainerMixin itself
        method = getattr(self, name)
        return getattr(method, "__func__", method) is not own

    def _needs_objective(self, mode):
        """Whether `mode`'s step is mb's own and would run without a compiled loss (so
        it needs ``add_loss`` losses, or, for evaluation, some metric)."""
        if self._compile_loss is not None or self._overrides("compute_loss"):
            return False
        if mode == "train":
            return not self._overrides("train_step")
        if self._compile_metrics is not None or self._layer_metrics():
            return False
        return not self._overrides("test_step")

    def _check_objective(self, method, mode, x):
        """Raises before the first step when the default step has nothing to compute:
        no compiled loss and no ``add_loss`` losses (found by one forward pass whose
        state changes are discarded)."""
        if not self._needs_objective(mode) or self.losses:
            return
        with StatelessScope(collect_losses=True):
            self._forward(x, training=mode == "train")
            found = bool(self.losses)
        if not found:
            message = _NO_LOSS if mode == "train" else _NOTHING_TO_EVALUATE
            raise ValueError(message.format(method=method))

    def _needs_predictions(self):
        """Whether building needs the model's outputs: an unbuilt layer, or a compiled
        loss or metric, which are built from the outputs' structure. A model built in
        ``__init__`` (``self.built = True``) that trains by its own ``train_step`` only
        (Keras's GAN pattern, no `call`) needs no forward pass, as in Keras."""
        if self._compile_loss is not None or self._compile_metrics is not None:
            return True
        return not all(layer.built for layer in self._flatten_layers(include_self=True))

    def _build_for_batch(self, data, training, method):
        x, y, sample_weight = unpack_x_y_sample_weight(data)
        y_pred = None
        if self._needs_predictions():
            y_pred = self._placeholder_predictions(x)
            if y_pred is None:
                y_pred = self._forward(x, training=False)
        self._check_objective(method, "train" if training else "test", x)
        if self._compile_loss is not None and not self._compile_loss.built:
            self._compile_loss.build(self, y, y_pred)
        if self._compile_metrics is not None and not self._compile_metrics.built:
            losses = self._compile_loss.losses if self._compile_loss is not None else []
            self._compile_metrics.build(self, y, y_pred, losses)
            if self._compile_metrics.needs_data():
                self._compile_metrics.build_from_data(y, self._forward(x, training=False))
        if self._compile_loss is not None:
            try:
                self._check_loss(x, y, y_pred, sample_weight)
            except Exception as error:  # engines raise their own types (tf: InvalidArgumentError)
                shapes_y = [tuple(getattr(t, "shape", ())) for t in tree.flatten(y)]
                shapes_p = [tuple(getattr(t, "shape", ())) for t in tree.flatten(y_pred)]
                raise ValueError(
                    f"The loss cannot be computed on the first batch: targets of shape(s) "
                    f"{shapes_y} do not fit predictions of shape(s) {shapes_p} for loss "
                    f"{self.loss!r}. Check the labels' shape (e.g. integer labels of shape "
                    f"(batch,) need a sparse_* loss, one-hot labels a categorical one). "
                    f"The loss raised: {error}"
                ) from error
        if training and self.optimizer is not None and not getattr(self.optimizer, "built", True):
            self.optimizer.build(self.trainable_variables)
        self.reset_metrics()

    def _compile_mode(self):
        if self._run_eagerly:
            return False
        return self._jit_compile

    def _host_arrays(self):
        """Whether fit/evaluate/predict hand batches to the compiled step as NumPy arrays
        (the backend's compiled functions place them in their own dispatch, cheaper than
        a conversion in Python first); eager steps get tensors."""
        if self._compile_mode() is False:
            return False
        return bool(backends.lookup("training", "JIT_PLACES_HOST_ARRAYS"))

    def _runner(self, mode):
        runner = self._runners.get(mode)
        if mode == "predict" and runner is not None and self._runner_still_fits(runner):
            self.__dict__["_trainable_cache"] = runner.read_only  # the trainable variables
            return runner
        version = structure_version()  # read before the walk, which changes nothing
        trainable = self.trainable_variables
        non_trainable = self.non_trainable_variables
        # (The metrics' variables are looked up only for the steps that update them:
        # finding the layers' metrics walks every layer, once per predict call.)
        if mode == "train":
            read_only = []
            mutable = (
                trainable + non_trainable + list(self.optimizer.variables) + self.metrics_variables
            )
            method = self.train_step
        elif mode == "test":
            read_only = trainable
            mutable = non_trainable + self.metrics_variables
            method = self.test_step
        else:
            read_only, mutable, method = trainable, non_trainable, self.predict_step
        # What the compiled step depends on beyond `compile`'s arguments (`compile`
        # drops the train and test runners): the variables and their grouping (a layer
        # frozen or unfrozen, a new optimizer built, weights added), the step method
        # (replaced on the instance), the compile mode (`run_eagerly`), the
        # distribution. Objects are held, not their ids: a freed object's id can be
        # reused by a new one. Input shapes and dtypes are the engine's part (jax.jit
        # and tf.function compile once per signature). The layers themselves are part
        # of it: a layer without variables added to a Sequential changes the step.
        key = (
            mode,
            tuple(id(v) for v in read_only),  # the runner holds these variables
            tuple(id(v) for v in mutable),
            self._step_key(method),
            tuple(self._flatten_layers(include_self=False)),
        )
        if runner is None or runner.key != key:  # tuples compare items by identity first
            spe = self._steps_per_execution if mode != "predict" else 1
            runner = _runner.StepRunner(
                method,
                read_only,
                mutable,
                self._compile_mode(),
                steps_per_execution=spe,
                pure=getattr(method, "_mb_pure_step", False),
                gather_outputs=mode == "predict",
            )
            runner.key = key
            self._runners[mode] = runner
        runner.structure_version = version
        # (Past the layer's and the engine's __setattr__: a plain attribute, set on
        # every fit/evaluate/predict call.)
        self.__dict__["_trainable_cache"] = trainable
        return runner

    def _step_key(self, method):
        """What the compiled step depends on besides the model's variables and layers."""
        return (getattr(method, "__func__", method), self._compile_mode(), _distributed.active())

    def _runner_still_fits(self, runner):
        """Whether the predict runner's key would come out the same, without walking the
        layers: no layer changed its variables, sub-layers or trainability since it was
        checked (`structure_version`), no variable was frozen or unfrozen on its own
        (read from the runner's few variables), and the step method, compile mode and
        distribution are the same."""
        return (
            runner.structure_version == structure_version()
            and runner.key[3] == self._step_key(self.predict_step)
            and all(map(_TRAINABLE, runner.read_only))
            and not any(map(_TRAINABLE, runner.mutable))
        )

    # ----- the step functions fit/evaluate/predict call ------------------------------

    def _make_function(self, mode, force):
        attribute = f"{mode}_function"
        current = getattr(self, attribute, None)
        if current is not None and not force:
            own = getattr(current, "_mb_runner", None)
            # A function the user set stays; mb's own follows the model's variables.
            if own is None or own is self._runner(mode):
                return current
        runner = self._runner(mode)

        def function(data):
            if len(data) == 1:
                return runner.run(data[0])
            return runner.run_many(data)

        function._mb_runner = runner
        setattr(self, attribute, function)
        return function

    def make_train_function(self, force=False):
        """The function `fit` and `train_on_batch` call: ``train_function(data) -> logs``,
        `data` a list of batches (``steps_per_execution`` of them at most), running
        `train_step` on each, compiled as `compile` asked.

        It is kept in ``model.train_function`` (reset by `compile`); a function set
        there by the user is used as is. With ``force=True`` mb's own is made again.
        """
        return self._make_function("train", force)

    def make_test_function(self, force=False):
        """The function `evaluate` and `test_on_batch` call: ``test_function(data) ->
        logs``, running `test_step` on each batch of the list `data` (kept in
        ``model.test_function``; see `make_train_function`)."""
        return self._make_function("test", force)

    def make_predict_function(self, force=False):
        """The function `predict` and `predict_on_batch` call: ``predict_function(data)
        -> outputs``, running `predict_step` on the batch in the one-element list
        `data` (kept in ``model.predict_function``; see `make_train_function`)."""
        return self._make_function("predict", force)

    def _callbacks(self, callbacks, verbose, **params):
        if isinstance(callbacks, CallbackList):
            callbacks.set_model(self)
            callbacks.set_params({"verbose": verbose, **params})
            return callbacks
        return CallbackList(
            callbacks,
            add_history=params.get("mode") == "fit",
            add_progbar=verbose != 0,
            model=self,
            verbose=verbose,
            **params,
        )

    # ----- fit ------------------------------------------------------------------------

    @filter_traceback
    def fit(
        self,
        x=None,
        y=None,
        batch_size=None,
        epochs=1,
        verbose="auto",
        callbacks=None,
        validation_split=0.0,
        validation_data=None,
        shuffle=True,
        class_weight=None,
        sample_weight=None,
        initial_epoch=0,
        steps_per_epoch=None,
        validation_steps=None,
        validation_batch_size=None,
        validation_freq=1,
    ):
        """Trains the model; returns a `History` of the per-epoch logs (Keras's `fit`).

        Needs a backend that can train (jax, torch, tensorflow) and a compiled model.

        Args:
            x: the inputs: an array (a list or dict of arrays for several inputs), a
                `PyDataset`, a generator, a `tf.data.Dataset`, a torch `DataLoader` or
                a grain dataset; a dataset yields ``(x, y)`` or
                ``(x, y, sample_weight)``.
            y: the targets, like `x`; None when `x` yields them.
            batch_size: samples per step for array inputs (default 32).
            epochs: the epoch to stop after (counting from `initial_epoch`).
            verbose: "auto" or 1 (a progress bar), 2 (one line per epoch), 0 (silent).
            callbacks: `Callback` objects called during training.
            validation_split: the fraction of array data held out for validation:
                the last samples, taken before shuffling.
            validation_data: data evaluated at the end of each epoch: ``(x_val,
                y_val)``, ``(x_val, y_val, sample_weight)`` or a dataset.
            shuffle: shuffle array data before each epoch.
            class_weight: a dict mapping class indices to loss weights.
            sample_weight: per-sample loss weights for array data.
            initial_epoch: the epoch to start from (to resume training).
            steps_per_epoch: batches per epoch (default: the whole data once).
            validation_steps: batches of validation data per evaluation.
            validation_batch_size: the batch size of the validation data.
            validation_freq: validate every this many epochs.

        Returns:
            A `History`: ``history.history`` maps each logged name (``loss``, the
            metrics, ``val_...``) to its per-epoch values.

        Example:

        >>> import numpy as np
        >>> from mb_layers import Input
        >>> from mb_layers.layers import Dense
        >>> from mb_train.models import Sequential
        >>> model = Sequential([Input((3,)), Dense(1)])
        >>> model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
        >>> x, y = np.ones((16, 3), "float32"), np.full((16, 1), 2.0, "float32")
        >>> history = model.fit(x, y, epochs=3, batch_size=8, verbose=0)
        >>> sorted(history.history), len(history.history["loss"])
        (['loss', 'mae'], 3)
        >>> history.history["loss"][-1] < history.history["loss"][0]
        True
        """
        self._assert_compiled("fit")
        cap = config.max_epochs()  # a debugging cap (Keras's too)
        if cap and cap < epochs:
            warnings.warn(f"Limiting epochs to {cap}", stacklevel=2)
            epochs = cap
        _runner.check_can_train()
        if validation_split and validation_data is None:
            (x, y, sample_weight), validation_data = train_validation_split(
                (x, y, sample_weight), validation_split
            )
        iterator = EpochIterator(
            x,
            y,
            sample_weight,
            batch_size=batch_size,
            steps_per_epoch=steps_per_epoch,
            shuffle=shuffle,
            class_weight=class_weight,
            steps_per_execution=self._steps_per_execution,
            host_arrays=self._host_arrays(),
        )
        val_iterator = None
        if validation_data is not None:
            vx, vy, vsw = unpack_x_y_sample_weight(validation_data)
            val_iterator = EpochIterator(
                vx,
                vy,
                vsw,
                batch_size=validation_batch_size or batch_size,
                steps_per_epoch=validation_steps,
                steps_per_execution=self._steps_per_execution,
                host_arrays=self._host_arrays(),
            )
        verbose = _resolve_verbose(verbose)
        pending = None
        if not self._ready_for("train"):
            chunks = iterator.enumerate_epoch()
            first = next(chunks, None)
            if first is None:
                raise ValueError("fit() received no data: the input yielded no batch.")
            self._build_for_batch(iterator.place(first[2][0]), training=True, method="fit")
            pending = _Pending(first, chunks)
        train_function = _fed_by(self.make_train_function(), iterator.host_arrays)
        callbacks = self._callbacks(
            callbacks, verbose, epochs=epochs, steps=iterator.num_batches, mode="fit"
        )
        self.stop_training = False
        callbacks.on_train_begin()
        # BackupAndRestore resumes an interrupted run from its last backed-up epoch.
        resume = self.__dict__.pop("_initial_epoch_override", None)
        if resume is not None and resume > initial_epoch:
            initial_epoch = resume
            if pending is not None:
                pending.close()
                pending = None
        epoch_logs = {}
        training_logs = None
        for epoch in range(initial_epoch, epochs):
            self.reset_metrics()
            callbacks.on_epoch_begin(epoch)
            chunks, pending = (pending or iterator.enumerate_epoch()), None
            logs = None
            for begin, end, batches in chunks:
                callbacks.on_train_batch_begin(begin)
                with _memory.naming_the_batch(batches, "fit"):
                    logs = train_function(batches)
                logs = _distributed.global_logs(self, logs)
                callbacks.on_train_batch_end(end, logs)
                if self.stop_training:
                    break
            epoch_logs = logs_to_floats(logs) if logs is not None else {}
            training_logs = dict(epoch_logs)
            if val_iterator is not None and _should_validate(epoch, validation_freq):
                val_logs = self._evaluate_iterator(val_iterator, callbacks, method="fit")
                epoch_logs.update({f"val_{k}": v for k, v in val_logs.items()})
            callbacks.on_epoch_end(epoch, epoch_logs)
            if self.stop_training:
                break
        if pending is not None:
            pending.close()
        finalize = getattr(self.optimizer, "finalize_variable_values", None)
        if finalize is not None and epochs > initial_epoch:
            # E.g. EMA without an overwrite frequency: the averages become the weights.
            finalize(self.trainable_variables)
        callbacks.on_train_end(training_logs)
        return self.history

    def _ready_for(self, mode):
        if self._compile_loss is not None and not self._compile_loss.built:
            return False
        if mode not in self._runners and self._needs_objective(mode):
            return False  # `_check_objective` runs once per compile
        if self._compile_metrics is not None and not self._compile_metrics.built:
            return False
        if mode == "train" and not getattr(self.optimizer, "built", True):
            return False
        return self.built

    # ----- evaluate -------------------------------------------------------------------

    def _evaluate_iterator(self, iterator, callbacks, method="evaluate"):
        test_function = None
        self.reset_metrics()
        callbacks.on_test_begin()
        logs = None
        for begin, end, batches in iterator.enumerate_epoch():
            if test_function is None:
                if not self._ready_for("test"):
                    self._build_for_batch(iterator.place(batches[0]), training=False, method=method)
                test_function = _fed_by(self.make_test_function(), iterator.host_arrays)
            callbacks.on_test_batch_begin(begin)
            with _memory.naming_the_batch(batches, method):
                logs = test_function(batches)
            logs = _distributed.global_logs(self, logs)
            callbacks.on_test_batch_end(end, logs)
        logs = logs_to_floats(logs) if logs is not None else {}
        callbacks.on_test_end(logs)
        return logs

    @filter_traceback
    def evaluate(
        self,
        x=None,
        y=None,
        batch_size=None,
        verbose="auto",
        sample_weight=None,
        steps=None,
        callbacks=None,
        return_dict=False,
        **kwargs,
    ):
        """Returns the loss and metrics on the data (a list, or a dict with `return_dict`).

        Works on every backend, the inference-only ones included.

        Args:
            x: the inputs, as for `fit`.
            y: the targets, as for `fit`.
            batch_size: samples per step for array inputs (default 32).
            verbose: "auto" or 1 (a progress bar), 0 (silent).
            sample_weight: per-sample loss weights for array data.
            steps: the number of batches to evaluate (default: all of the data).
            callbacks: `Callback` objects called during evaluation.
            return_dict: return ``{name: value}`` instead of a list.
            **kwargs: only Keras's internal ``_use_cached_eval_dataset`` (ignored);
                anything else is a `ValueError`.

        Returns:
            The loss then the compiled metrics, as floats, in Keras's order (a
            single float when there is only the loss).

        Example:

        >>> import numpy as np
        >>> from mb_layers import Input
        >>> from mb_layers.layers import Dense
        >>> from mb_train.models import Sequential
        >>> model = Sequential([Input((2,)), Dense(1, kernel_initializer="ones")])
        >>> model.compile(loss="mse", metrics=["mae"])
        >>> x, y = np.ones((4, 2)), np.full((4, 1), 3.0)  # predictions are 2.0
        >>> model.evaluate(x, y, verbose=0)
        [1.0, 1.0]
        >>> model.evaluate(x, y, verbose=0, return_dict=True)
        {'loss': 1.0, 'mae': 1.0}
        """
        kwargs.pop("_use_cached_eval_dataset", None)  # Keras's fit passes it; mb has no cache
        if kwargs:
            raise ValueError(
                f"evaluate() got unexpected arguments: {kwargs}. It takes x, y, batch_size, "
                "verbose, sample_weight, steps, callbacks and return_dict."
            )
        self._assert_compiled("evaluate")
        iterator = EpochIterator(
            x,
            y,
            sample_weight,
            batch_size=batch_size,
            steps_per_epoch=steps,
            steps_per_execution=self._steps_per_execution,
            host_arrays=self._host_arrays(),
        )
        verbose = _resolve_verbose(verbose)
        callbacks = self._callbacks(callbacks, verbose, steps=iterator.num_batches, mode="evaluate")
        logs = self._evaluate_iterator(iterator, callbacks)
        return logs if return_dict else self._logs_in_order(logs)

    # ----- predict --------------------------------------------------------------------

    @filter_traceback
    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None):
        """The model's outputs on `x`, as NumPy arrays (batches concatenated).

        Works on every backend and needs no `compile`.

        Args:
            x: the inputs, as for `fit` (a dataset's targets are ignored).
            batch_size: samples per step for array inputs (default 32).
            verbose: "auto" or 1 (a progress bar), 0 (silent).
            steps: the number of batches to predict (default: all of the data).
            callbacks: `Callback` objects called during prediction.

        Returns:
            A NumPy array, or the model's output structure (list, dict) of them.

        Example:

        >>> import numpy as np
        >>> from mb_layers import Input
        >>> from mb_layers.layers import Dense
        >>> from mb_train.models import Sequential
        >>> model = Sequential([Input((2,)), Dense(1, kernel_initializer="ones")])
        >>> model.predict(np.array([[1.0, 2.0], [3.0, 4.0]]), verbose=0)
        array([[3.],
               [7.]], dtype=float32)
        """
        host_arrays = self._host_arrays()
        if callbacks is None and steps is None and _resolve_verbose(verbose) == 0:
            # One request's batch: no iterator or callbacks to set up (nothing to call).
            data = EpochIterator.only_batch(x, batch_size, host_arrays)
            if data is not None:
                outputs = self._predict_batch(self._predict_function(data, host_arrays), data)
                return tree.map_structure(_joiner(), outputs)
        iterator = EpochIterator(
            x, batch_size=batch_size, steps_per_epoch=steps, host_arrays=host_arrays
        )
        verbose = _resolve_verbose(verbose)
        callbacks = self._callbacks(callbacks, verbose, steps=iterator.num_batches, mode="predict")
        callbacks.on_predict_begin()
        predict_function = None
        outputs = []
        for begin, end, batches in iterator.enumerate_epoch():
            for position, data in enumerate(batches):
                if predict_function is None:
                    predict_function = self._predict_function(data, iterator.host_arrays)
                callbacks.on_predict_batch_begin(begin)
                batch_outputs = self._predict_batch(predict_function, data)
                gathered = _distributed.gather_outputs(batch_outputs, iterator, position)
                outputs.append(batch_outputs if gathered is None else gathered)
            callbacks.on_predict_batch_end(end, {"outputs": outputs[-1]} if outputs else None)
        callbacks.on_predict_end()
        if not outputs:
            raise ValueError("predict() received no data: the input yielded no batch.")
        return tree.map_structure(_joiner(), *outputs)

    def _predict_function(self, data, host_arrays):
        """The predict function, fed `predict`'s batches (`data` the first: it builds an
        unbuilt model)."""
        if not self.built:
            x_batch, _, _ = unpack_x_y_sample_weight(
                EpochIterator.place(data) if host_arrays else data
            )
            self(x_batch)
        return _fed_by(self.make_predict_function(), host_arrays)

    @staticmethod
    def _predict_batch(predict_function, data):
        try:  # (not `with _memory.naming_the_batch`: a context manager per batch)
            return predict_function([data])
        except Exception as error:
            named = _memory.out_of_memory_error(error, [data], "predict")
            if named is None:
                raise
            raise named from error

    # ----- single batches -------------------------------------------------------------

    def train_on_batch(self, x, y=None, sample_weight=None, class_weight=None, return_dict=False):
        """One training step on one batch; returns the loss and metrics of that batch
        (the metrics are reset first): a list in Keras's order, the loss first, or a
        dict with `return_dict`.

        `class_weight` maps class indices to weights; each sample is weighted by its
        class in `y` (single-output models, as in `fit`).
        """
        self._assert_compiled("train_on_batch")
        _runner.check_can_train()
        if class_weight is not None:
            sample_weight = class_weight_to_sample_weights(y, class_weight, sample_weight)
        data = _convert_batch((x, y, sample_weight) if sample_weight is not None else (x, y))
        if not self._ready_for("train"):
            self._build_for_batch(data, training=True, method="train_on_batch")
        train_function = self.make_train_function()
        self.reset_metrics()
        logs = logs_to_floats(train_function([data]))
        return logs if return_dict else self._logs_in_order(logs)

    def test_on_batch(self, x, y=None, sample_weight=None, return_dict=False):
        """One evaluation step on one batch; returns the loss and metrics of that batch
        (the metrics are reset first): a list in Keras's order, the loss first, or a
        dict with `return_dict`."""
        self._assert_compiled("test_on_batch")
        data = _convert_batch((x, y, sample_weight) if sample_weight is not None else (x, y))
        if not self._ready_for("test"):
            self._build_for_batch(data, training=False, method="test_on_batch")
        test_function = self.make_test_function()
        self.reset_metrics()
        logs = logs_to_floats(test_function([data]))
        return logs if return_dict else self._logs_in_order(logs)

    def _logs_in_order(self, logs):
        """The logs' values as Keras lists them (its ``_flatten_metrics_in_order``):
        by ``model.metrics``, the compiled metrics by their own names, then every
        other entry by sorted name (e.g. the per-output metrics of a multi-output
        model); a name is listed once; one value alone is returned bare."""
        names = []
        for metric in self.metrics:
            if metric is self._compile_metrics:
                names += [m.name for m in metric.metrics]
            else:
                names.append(metric.name)
        ordered = [n for n in dict.fromkeys(names) if n in logs]
        ordered += sorted(k for k in logs if k not in ordered)
        values = [logs[k] for k in ordered]
        return values[0] if len(values) == 1 else values

    def predict_on_batch(self, x):
        """The model's outputs on one batch, as NumPy arrays."""
        data = _convert_batch(x)
        if not self.built:
            self(data)
        outputs = self.make_predict_function()([(data,)])
        return tree.map_structure(_to_numpy, outputs)


class _Pending:
    """The first epoch's chunks, with the one already read to build the model."""

    def __init__(self, first, rest):
        self._chain = itertools.chain([first], rest)
        self._rest = rest

    def __iter__(self):
        return self._chain

    def close(self):
        self._rest.close()


def _specs(data):
    """KerasTensors shaped like the arrays in `data` (other leaves kept)."""
    if data is None:
        return None
    return tree.map_structure(
        lambda a: (
            KerasTensor(tuple(a.shape), standardize_dtype(a.dtype))
            if hasattr(a, "shape") and hasattr(a, "dtype")
            else a
        ),
        data,
    )


def _should_validate(epoch, validation_freq):
    if isinstance(validation_freq, int):
        return (epoch + 1) % validation_freq == 0
    return (epoch + 1) in validation_freq
