#!/usr/bin/env bash
# Prints the directory of a Node.js that the tools run on (package.json's engines.node): the machine's own when it
# is new enough, else the Node 22 LTS pinned below, unpacked once into .toolchain/ from the npm registry's
# node-linux-<arch> package and checked against its pinned SHA-512. Messages go to stderr, the directory to stdout:
#   export PATH="$(bash scripts/ensure-node.sh):$PATH"
# --accepts VERSION exits 0 when VERSION is new enough (tests/unit/node-toolchain.test.ts holds it to engines.node).
# Not in .local/: `npm run reset` empties that directory, the stage's data.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"

# The Node 22 LTS installed when the machine's is older, and its tarballs' SHA-512 (hex of the registry's
# dist.integrity: npm view node-linux-<arch>@<version> dist.integrity).
NODE_VERSION=22.23.5
declare -A NODE_SHA512=(
  [x64]=de3842fb07285b1299c5c46a176b144a5d1cf47117167babfe7b883f1e8ee8258a5748ce516426ec7b70e52b97aaa94c084862d1c26ac9b14f11be6185c06233
  [arm64]=7b52ce506295aee3c6b8b56eb67f3e0a09b9a48d403e6e0abe1fb36dbfea7bf6690fdb3e4d06f2e6252064e5a63e96d22a98f44ddf033f53743449d76ac1e2ce
)

# engines.node "^22.13.0 || >=24": the oldest 22 that every dependency accepts (jsdom, @inquirer/* ask for
# ^22.13.0), or 24 and newer; 23 is not an LTS and its early releases fail them.
accepts() {
  local major minor rest
  IFS=. read -r major minor rest <<<"${1#v}"
  [[ "$major" =~ ^[0-9]+$ && "$minor" =~ ^[0-9]+$ ]] || return 1
  ((major == 22 && minor >= 13)) || ((major >= 24))
}

if [ "${1:-}" = "--accepts" ]; then
  accepts "${2:?--accepts VERSION}"
  exit
fi

system_node="$(command -v node || true)"
if [ -n "$system_node" ] && accepts "$("$system_node" -v)"; then
  dirname "$system_node"
  exit 0
fi

case "$(uname -s)/$(uname -m)" in
  Linux/x86_64 | Linux/amd64) arch=x64 ;;
  Linux/aarch64 | Linux/arm64) arch=arm64 ;;
  *)
    echo "Se necesita Node.js 22.13 o más nuevo (este equipo tiene ${system_node:+$("$system_node" -v)}${system_node:-ninguno})" \
      "y este script solo lo instala en Linux x64 o arm64: instálelo, por ejemplo con 'nvm install 22'." >&2
    exit 1
    ;;
esac

TOOLCHAIN="$ROOT/.toolchain"
DIR="$TOOLCHAIN/node-v$NODE_VERSION-linux-$arch"

installed() {
  [ -x "$DIR/bin/node" ] && [ "$("$DIR/bin/node" -v 2>/dev/null)" = "v$NODE_VERSION" ]
}

if ! installed; then
  if ! command -v npm >/dev/null 2>&1; then
    echo "Se necesita Node.js 22.13 o más nuevo, y npm para instalarlo: no se encontró npm." >&2
    exit 1
  fi
  mkdir -p "$TOOLCHAIN"
  # Two runs at once (a test run and npm start) install it once.
  exec 9>"$TOOLCHAIN/.lock"
  flock 9
  if ! installed; then
    echo "Instalando Node.js $NODE_VERSION (linux-$arch) en .toolchain/ desde el registro de npm..." >&2
    work="$(mktemp -d "$TOOLCHAIN/.install.XXXXXX")"
    trap 'rm -rf "$work"' EXIT
    (cd "$work" && npm pack "node-linux-$arch@$NODE_VERSION" --pack-destination "$work" --json --loglevel=error >/dev/null)
    tarball="$work/node-linux-$arch-$NODE_VERSION.tgz"
    if [ "$(sha512sum "$tarball" | cut -d' ' -f1)" != "${NODE_SHA512[$arch]}" ]; then
      echo "El paquete node-linux-$arch@$NODE_VERSION descargado no coincide con su SHA-512 fijado en $0." >&2
      exit 1
    fi
    mkdir "$work/node"
    tar -xzf "$tarball" -C "$work/node" --strip-components=1 package/bin/node package/LICENSE
    if [ "$("$work/node/bin/node" -v 2>/dev/null)" != "v$NODE_VERSION" ]; then
      echo "Node.js $NODE_VERSION no arranca en esta máquina (¿una libc distinta de glibc?): instale Node.js 22.13+." >&2
      exit 1
    fi
    rm -rf "$DIR"
    mv "$work/node" "$DIR"
    # The versions pinned before this one.
    find "$TOOLCHAIN" -mindepth 1 -maxdepth 1 -name 'node-v*' ! -name "${DIR##*/}" -exec rm -rf {} +
  fi
fi

echo "$DIR/bin"
