# A Python virtual environment with pinned tools, for
# scripts/python-tests.sh and scripts/python-wheels.sh. Source it, then:
#
#   py_venv DIR REQUIREMENTS   makes the environment DIR with python3 (3.9
#                       or later) if it is not there, installing Debian's
#                       python3-venv with apt where python3 lacks venv or
#                       ensurepip; then installs REQUIREMENTS (a pinned
#                       requirements file) into it with pip whenever that
#                       file changed since the last install (a copy is kept
#                       in DIR/.requirements), so re-runs cost nothing.

py_venv() {
    local venv=$1 requirements=$2
    if [ ! -x "$venv/bin/python" ]; then
        if ! python3 -m venv --help >/dev/null 2>&1 || ! python3 -c 'import ensurepip' >/dev/null 2>&1; then
            echo "== installing python3-venv (apt)"
            local sudo=""
            if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
            $sudo apt-get update -qq
            $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
        fi
        echo "== creating $venv"
        rm -rf "$venv"
        python3 -m venv "$venv"
    fi
    local stamp=$venv/.requirements
    if ! cmp -s "$requirements" "$stamp"; then
        echo "== pip install -r $requirements"
        "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
        cp "$requirements" "$stamp"
    fi
}
