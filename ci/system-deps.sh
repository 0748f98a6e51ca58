# Sourced by ci/test: system packages some tests need beyond uv.lock.
# graphviz (the `dot` program) renders plot_model's images; pip cannot install it. It is
# installed here when missing and this machine allows it (root, or password-less sudo,
# with apt-get); otherwise the rendering tests skip, saying what to install.
if ! command -v dot >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then
      as_root=()
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      as_root=(sudo -n)
    else
      as_root=(none)
    fi
    if [ "${as_root[0]:-}" != none ]; then
      echo "Installing graphviz (for plot_model's tests) with apt-get..." >&2
      export DEBIAN_FRONTEND=noninteractive
      "${as_root[@]}" apt-get install -y -q --no-install-recommends graphviz >/dev/null 2>&1 \
        || { "${as_root[@]}" apt-get update -q >/dev/null 2>&1 \
             && "${as_root[@]}" apt-get install -y -q --no-install-recommends graphviz >/dev/null 2>&1; } \
        || echo "Could not install graphviz: plot_model's rendering tests will skip." >&2
    fi
  fi
  command -v dot >/dev/null 2>&1 \
    || echo "graphviz is not installed (apt-get install graphviz): plot_model's rendering tests will skip." >&2
fi
