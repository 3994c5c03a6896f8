# shellcheck shell=bash
# Sourced by setup, wrun and test: where the Wine prefix of this checkout lives and how Wine is run.
#
# The prefix is cached under $NARNAT_WINE_CACHE (default /var/cache/narnat-wine), in a folder named by a hash of
# the requirements read from this checkout's pyproject.toml and of setup, env.sh, deps.py and bcryptprimitives.c:
# a checkout with other dependencies or another setup gets its own prefix.

WIN_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$WIN_DIR/../.." && pwd)
NARNAT_WINE_CACHE=${NARNAT_WINE_CACHE:-/var/cache/narnat-wine}
HOST_PY=${NARNAT_WINE_HOST_PYTHON:-python3}

WIN_KEY=$("$HOST_PY" "$WIN_DIR/deps.py" key "$REPO_DIR/pyproject.toml" \
    "$WIN_DIR/setup" "$WIN_DIR/env.sh" "$WIN_DIR/deps.py" "$WIN_DIR/bcryptprimitives.c") || WIN_KEY=
WIN_KEY_DIR=$NARNAT_WINE_CACHE/$WIN_KEY

export WINEPREFIX=$WIN_KEY_DIR/prefix
export WINEARCH=win64
export WINEDEBUG=-all
export WINEDLLOVERRIDES="mscoree,mshtml=" # no Mono or Gecko: nothing may be downloaded
export WINEPATH='C:\py\cp311\Scripts;C:\py\cp311'
unset DISPLAY WAYLAND_DISPLAY
WIN_PY='C:\py\cp311\python.exe'
NARNAT_WINE_IDLE=${NARNAT_WINE_IDLE:-900} # a warm wineserver ends itself after this many idle seconds

# A Linux path as Wine's Z: drive sees it.
winpath() { local p=$1; printf 'Z:%s' "${p//\//\\}"; }

# Is a wineserver for this prefix up? It runs in a folder server-DEV-INODE (of the prefix) under /tmp/.wine-UID
# (upstream Wine) or /tmp/wine-XXXXXX (Debian's, named in $WINEPREFIX/wineserver), and holds a POSIX lock on the
# file `lock` there while it runs (a socket left by a killed server has no lock).
wine_server_up() {
    [ -d "$WINEPREFIX" ] || return 1
    local dev ino name lock
    dev=$(stat -c %d "$WINEPREFIX") && ino=$(stat -c %i "$WINEPREFIX") || return 1
    name=server-$(printf %x "$dev")-$(printf %x "$ino")
    for lock in "/tmp/.wine-$(id -u)/$name/lock" /tmp/wine-*/"$name/lock"; do
        [ -f "$lock" ] && [ -S "${lock%/lock}/socket" ] || continue
        ino=$(stat -c %i "$lock") || continue
        awk -v ino="$ino" '$2 == "POSIX" && $6 ~ (":" ino "$") { up = 1 } END { exit !up }' /proc/locks && return 0
    done
    return 1
}

# wine_warm [SECONDS [WINEBOOT-ARGS...]]: start a wineserver that outlives this command, and the prefix's
# services, both detached from every standard handle: a Wine service started by a piped command inherits its
# pipes and never ends, so `| cat` never sees EOF. Nor may they hold fd 9, the cache lock of setup and test.
wine_warm() {
    wine_server_up && return 0
    setsid wineserver -p"$NARNAT_WINE_IDLE" </dev/null >/dev/null 2>&1 9>&- || return 1
    timeout -k 5 "${1:-180}" setsid -w wineboot "${@:2}" </dev/null >/dev/null 2>&1 9>&-
}
