#!/usr/bin/env bash
# Makes sure the system Chromium the e2e tests drive is present (Playwright's browser download is not used).
set -euo pipefail

CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"

if [ -x "$CHROMIUM_PATH" ]; then
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  echo "Instalando Chromium (apt-get)..." >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends chromium >/dev/null
  if [ ! -x "$CHROMIUM_PATH" ]; then
    echo "Se instaló el paquete chromium pero no existe $CHROMIUM_PATH." >&2
    exit 1
  fi
  exit 0
fi

cat >&2 <<MSG
No se encontró Chromium en $CHROMIUM_PATH y este usuario no es root.
Las pruebas e2e necesitan el Chromium del sistema. Instálelo con:
  sudo apt-get update && sudo apt-get install -y chromium
o indique otra ruta con CHROMIUM_PATH=/ruta/a/chromium.
MSG
exit 1
