"""`Config` (``keras.utils.Config``): a dict of named values read and set as attributes,
that can be frozen and written as JSON."""

import difflib
import json


class Config:
    """A dict-like container of named values, also read and set as attributes.

    Args:
        **kwargs: the initial values.

    Example:

    >>> config = Config(learning_rate=0.1)
    >>> config.seed = 123
    >>> config["momentum"] = 0.9
    >>> config.learning_rate, config["seed"], sorted(config)
    (0.1, 123, ['learning_rate', 'momentum', 'seed'])
    >>> config.freeze()
    >>> config.seed = 1
    Traceback (most recent call last):
    ...
    ValueError: Cannot set 'seed': the config is frozen. Call unfreeze() first.
    """

    def __init__(self, **kwargs):
        object.__setattr__(self, "_config", dict(kwargs))
        object.__setattr__(self, "_frozen", False)

    @property
    def frozen(self):
        """Whether the config refuses changes (see `freeze`)."""
        return self._frozen

    def freeze(self):
        """Refuses every later change (setting, updating, popping, deleting values)."""
        object.__setattr__(self, "_frozen", True)

    def unfreeze(self):
        """Allows changes again."""
        object.__setattr__(self, "_frozen", False)

    def _check_mutable(self, what):
        if self._frozen:
            raise ValueError(f"Cannot {what}: the config is frozen. Call unfreeze() first.")

    def as_dict(self):
        """A shallow copy of the values, as a plain dict."""
        return dict(self._config)

    def to_json(self):
        """The values as a JSON string."""
        return json.dumps(self._config)

    def keys(self):
        return self._config.keys()

    def values(self):
        return self._config.values()

    def items(self):
        return self._config.items()

    def get(self, keyname, value=None):
        return self._config.get(keyname, value)

    def pop(self, *args):
        self._check_mutable(f"pop {args[0]!r}" if args else "pop")
        return self._config.pop(*args)

    def update(self, *args, **kwargs):
        self._check_mutable("update")
        self._config.update(*args, **kwargs)

    def __setattr__(self, name, value):
        if name.startswith("_") or hasattr(type(self), name):
            object.__setattr__(self, name, value)
            return
        self[name] = value

    def __getattr__(self, name):
        # Only reached when normal lookup fails: a value, or an error naming the closest.
        config = self.__dict__.get("_config", {})
        if name in config:
            return config[name]
        message = f"Config has no value '{name}'."
        close = difflib.get_close_matches(name, list(config), n=1, cutoff=0.7)
        if close:
            message += f" Did you mean '{close[0]}'?"
        raise AttributeError(message)

    def __setitem__(self, key, value):
        self._check_mutable(f"set {key!r}")
        self._config[key] = value

    def __getitem__(self, key):
        return self._config[key]

    def __delitem__(self, key):
        self._check_mutable(f"delete {key!r}")
        del self._config[key]

    def __contains__(self, key):
        return key in self._config

    def __iter__(self):
        return iter(sorted(self._config))

    def __len__(self):
        return len(self._config)

    def __repr__(self):
        return f"<Config {self._config}>"
