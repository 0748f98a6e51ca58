# Sourced by the ci scripts: makes sure uv is available and exports UV, the command to run it.
if command -v uv >/dev/null 2>&1; then
  UV=uv
elif python3 -m uv --version >/dev/null 2>&1; then
  UV="python3 -m uv"
else
  echo "Installing uv with pip (it is the only tool the project needs beyond Python)..." >&2
  python3 -m pip install --quiet --disable-pip-version-check uv >&2
  UV="python3 -m uv"
fi
export UV
