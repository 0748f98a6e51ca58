"""`Optimizer`: Keras 3's optimizer base, written once over `mb_ops`."""

import contextlib
import inspect
import re
import warnings

from mb_graph.naming import auto_name
from mb_layers import _serialization
from mb_ops import StatelessScope, Variable, config, name_scope, ops
from mb_train.optimizers import _checks, schedules
from mb_train.optimizers._apply import ApplyMixin
from mb_train.optimizers._variables import VariablesMixin


class Optimizer(ApplyMixin, VariablesMixin):
    """The base of every optimizer (``keras.optimizers.Optimizer``).

    Subclasses create their slot variables in ``build(variables)`` and either
    implement Keras's ``update_step(gradient, variable, learning_rate)`` (using
    ``self.assign``), or give the per-tensor math as a rule (``_plan``): a pure
    function of tensors that the backend may fuse over every variable.

    Args:
        learning_rate: a float, a `LearningRateSchedule`, or a callable
            returning the rate.
        weight_decay: decoupled weight decay: ``v -= v * weight_decay * lr``.
        clipnorm: clip each gradient to this L2 norm.
        clipvalue: clip each gradient element to ``[-clipvalue, clipvalue]``.
        global_clipnorm: clip all gradients together to this global norm.
        use_ema: keep an exponential moving average of the weights.
        ema_momentum: the EMA's momentum.
        ema_overwrite_frequency: every that many steps, write the EMA into the
            weights (None: only `finalize_variable_values` does).
        loss_scale_factor: multiply the loss by it and divide the gradients.
        gradient_accumulation_steps: update every that many steps with the
            mean of the accumulated gradients.
        name: the optimizer's name (prefix of its variables' paths).

    Example:
        >>> import mb_ops
        >>> from mb_train.optimizers import SGD
        >>> w = mb_ops.Variable([1.0, 2.0], name="w")
        >>> optimizer = SGD(learning_rate=0.1)
        >>> optimizer.apply([ops.convert_to_tensor([1.0, 1.0])], [w])
        >>> [round(x, 6) for x in w.numpy().tolist()], int(optimizer.iterations)
        ([0.9, 1.9], 1)
    """

    #: A subclass's own constructor arguments, kept as attributes of the same names;
    #: `get_config` writes them after the common ones.
    _config_names = ()

    def __init__(
        self,
        learning_rate,
        weight_decay=None,
        clipnorm=None,
        clipvalue=None,
        global_clipnorm=None,
        use_ema=False,
        ema_momentum=0.99,
        ema_overwrite_frequency=None,
        loss_scale_factor=None,
        gradient_accumulation_steps=None,
        name=None,
        **kwargs,
    ):
        who = type(self).__name__
        if kwargs.pop("decay", None) is not None:
            warnings.warn("Argument `decay` is no longer supported and will be ignored.")
        if kwargs:
            raise ValueError(
                f"{who}: argument(s) not recognized: {kwargs}. See the optimizer's docstring "
                "for the arguments it takes."
            )
        object.__setattr__(self, "_variables", [])
        object.__setattr__(self, "_tracked_ids", set())
        self.name = name if name is not None else auto_name(who)
        self.weight_decay = _checks.optional_non_negative(weight_decay, "weight_decay", who)
        _checks.check_clipping(clipnorm, clipvalue, global_clipnorm, who)
        self.clipnorm = clipnorm
        self.global_clipnorm = global_clipnorm
        self.clipvalue = clipvalue
        _checks.check_ema(use_ema, ema_momentum, ema_overwrite_frequency, who)
        self.use_ema = use_ema
        self.ema_momentum = ema_momentum
        self.ema_overwrite_frequency = ema_overwrite_frequency
        _checks.check_loss_scale_factor(loss_scale_factor, who)
        self.loss_scale_factor = loss_scale_factor
        _checks.check_accumulation(gradient_accumulation_steps, who)
        self.gradient_accumulation_steps = gradient_accumulation_steps
        self.built = False
        self._trainable_variables = []
        self._trainable_variables_indices = {}
        self._plans = {}
        self._step_plans = {}
        self._exclude_ids = set()
        self._exclude_pattern = None
        self._decay_cache = {}
        # Fast paths (private switches, for tests that compare them with the generic one).
        self._allow_fused_update = True
        self._allow_kernels = True
        self._in_place_blocked = 0
        with name_scope(self.name, caller=self):
            self._iterations = Variable(
                0,
                name="iteration",
                dtype="int32",
                trainable=False,
                aggregation="only_first_replica",
            )
        self._learning_rate = self._make_learning_rate(learning_rate, who)

    def _make_learning_rate(self, learning_rate, who):
        if isinstance(learning_rate, schedules.LearningRateSchedule) or (
            callable(learning_rate) and not isinstance(learning_rate, Variable)
        ):
            return learning_rate
        value = _checks.learning_rate_value(learning_rate, who)
        with name_scope(self.name, caller=self):
            return Variable(
                value,
                name="learning_rate",
                dtype=config.floatx(),
                trainable=False,
                aggregation="only_first_replica",
            )

    # ----- step and learning rate ---------------------------------------------------

    @property
    def iterations(self):
        """The number of updates applied (a Variable; with gradient accumulation, the
        number of real updates: ``steps // gradient_accumulation_steps``)."""
        if self.gradient_accumulation_steps:
            return ops.floor_divide(self._iterations.value, self.gradient_accumulation_steps)
        return self._iterations

    def _iterations_value(self):
        if self.gradient_accumulation_steps:
            return ops.floor_divide(self._iterations.value, self.gradient_accumulation_steps)
        return self._iterations.value

    @property
    def learning_rate(self):
        """The current rate: the `learning_rate` Variable (settable with ``=``), or the
        schedule's value at the current step."""
        return self._get_current_learning_rate()

    @learning_rate.setter
    def learning_rate(self, learning_rate):
        previous = self._learning_rate
        if isinstance(learning_rate, schedules.LearningRateSchedule) or (
            callable(learning_rate) and not isinstance(learning_rate, Variable)
        ):
            self._learning_rate = learning_rate
            if isinstance(previous, Variable):
                self._untrack_variable(previous)
            return
        if not isinstance(previous, Variable):
            raise TypeError(
                f"{type(self).__name__} was created with a `LearningRateSchedule` (or a "
                "callable) as its `learning_rate`, so its learning rate is not settable to a "
                "number. Create the optimizer with a float `learning_rate` to set it later."
            )
        if isinstance(learning_rate, Variable):
            learning_rate = learning_rate.numpy()
        previous.assign(_checks.learning_rate_value(learning_rate, type(self).__name__))

    def _get_current_learning_rate(self):
        rate = self._learning_rate
        if isinstance(rate, Variable):
            return rate
        if isinstance(rate, schedules.LearningRateSchedule):
            return rate(self._iterations)
        return rate()

    def _learning_rate_value(self):
        """The rate as a tensor, for the update math."""
        rate = self._learning_rate
        if isinstance(rate, Variable):
            return rate.value
        if isinstance(rate, schedules.LearningRateSchedule):
            return rate(self._iterations.value)
        return ops.convert_to_tensor(rate(), config.floatx())

    # ----- building -----------------------------------------------------------------

    def build(self, variables):
        """Creates the optimizer's variables for the model's trainable `variables`."""
        variables = list(variables)
        if self.use_ema:
            self._model_variables_moving_average = self.add_optimizer_variables(
                variables, "average"
            )
        if self.gradient_accumulation_steps:
            self._accumulated_gradients = [
                self.add_variable_from_reference(v, name="gradient_accumulator") for v in variables
            ]
        self._trainable_variables_indices = {id(v): i for i, v in enumerate(variables)}
        self._trainable_variables = variables
        self._plans = {}
        self._step_plans = {}
        self.built = True

    # ----- weight decay ---------------------------------------------------------------

    def exclude_from_weight_decay(self, var_list=None, var_names=None):
        """Exempts variables from weight decay: those in `var_list`, and those whose name
        matches one of the patterns in `var_names` (``re.search``, e.g. ``["bias"]``)."""
        self._exclude_ids = {id(v) for v in var_list or ()}
        names = list(var_names or ())
        self._exclude_pattern = re.compile("|".join(names)) if names else None
        self._decay_cache = {}
        self._step_plans = {}

    def _use_weight_decay(self, variable):
        key = id(variable)
        found = self._decay_cache.get(key)
        if found is None:
            found = key not in self._exclude_ids and not (
                self._exclude_pattern is not None and self._exclude_pattern.search(variable.name)
            )
            self._decay_cache[key] = found
        return found

    # ----- loss scaling, EMA finalization, stateless use ----------------------------

    def scale_loss(self, loss):
        """The loss multiplied by `loss_scale_factor` (unchanged when it is None)."""
        if self.loss_scale_factor is not None:
            return loss * self.loss_scale_factor
        return loss

    def finalize_variable_values(self, var_list):
        """With ``use_ema``, writes the moving averages into the model's variables."""
        if self.use_ema:
            self._overwrite_model_variables_with_average_value(var_list)

    @contextlib.contextmanager
    def _no_in_place(self):
        self._in_place_blocked += 1
        try:
            yield
        finally:
            self._in_place_blocked -= 1

    def stateless_apply(self, optimizer_variables, grads, trainable_variables):
        """`apply` on explicit values; returns ``(new_trainable_values, new_optimizer_values)``.

        Nothing is mutated: the values given are read, new ones returned.
        """
        if not self.built:
            raise ValueError(
                f"To call `stateless_apply`, {type(self).__name__} must be built (its "
                "variables created). Build it with `optimizer.build(trainable_variables)`."
            )
        own = self.variables
        if len(optimizer_variables) != len(own):
            raise ValueError(
                "`optimizer_variables` must be a list of tensors corresponding 1:1 to "
                f"{type(self).__name__}().variables. Received {len(optimizer_variables)} "
                f"values, expected {len(own)}."
            )
        if len(trainable_variables) != len(self._trainable_variables):
            raise ValueError(
                "`trainable_variables` must correspond 1:1 to the variables the optimizer was "
                f"built with: received {len(trainable_variables)} values, expected "
                f"{len(self._trainable_variables)}."
            )
        mapping = list(zip(self._trainable_variables, trainable_variables, strict=True))
        mapping += list(zip(own, optimizer_variables, strict=True))
        with StatelessScope(mapping) as scope, self._no_in_place():
            self.apply(grads)
        return (
            [scope.get_current_value(v) for v in self._trainable_variables],
            [scope.get_current_value(v) for v in own],
        )

    # ----- configuration ------------------------------------------------------------

    def get_config(self):
        """The constructor arguments, as Keras 3 writes them in ``.keras`` files.

        The common ones first, then the subclass's own: those named in its
        ``_config_names``, read from the attributes of the same names.
        """
        rate = self._learning_rate
        if isinstance(rate, schedules.LearningRateSchedule):
            learning_rate = schedules.serialize(rate)
        elif isinstance(rate, Variable):
            learning_rate = float(rate.numpy())
        else:
            learning_rate = _serialization.serialize_function(rate, {}, "keras.optimizers")
        return {
            "name": self.name,
            "learning_rate": learning_rate,
            "weight_decay": self.weight_decay,
            "clipnorm": self.clipnorm,
            "global_clipnorm": self.global_clipnorm,
            "clipvalue": self.clipvalue,
            "use_ema": self.use_ema,
            "ema_momentum": self.ema_momentum,
            "ema_overwrite_frequency": self.ema_overwrite_frequency,
            "loss_scale_factor": self.loss_scale_factor,
            "gradient_accumulation_steps": self.gradient_accumulation_steps,
            **{name: getattr(self, name) for name in self._config_names},
        }

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """Creates the optimizer from `get_config`'s dict (a schedule dict is rebuilt)."""
        config = dict(config)
        if isinstance(config.get("learning_rate"), dict):
            config["learning_rate"] = schedules.deserialize(
                config["learning_rate"], custom_objects=custom_objects
            )
        return cls(**config)

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"


_BASE_ARGUMENTS = tuple(inspect.signature(Optimizer.__init__).parameters)[1:-1]


def base_arguments(arguments):
    """The base ``Optimizer``'s arguments out of a subclass ``__init__``'s ``locals()``.

    Every optimizer repeats the common arguments in its own signature, as Keras's do;
    ``super().__init__(**base_arguments(locals()))`` hands them (and ``**kwargs``) on
    without listing them a second time.
    """
    return {**{name: arguments[name] for name in _BASE_ARGUMENTS}, **arguments["kwargs"]}
