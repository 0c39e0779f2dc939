#!/usr/bin/env bash
# A real S3 server for iogauge's tests and benches: Ceph's RADOS Gateway (Debian's radosgw
# 16.2) on a one-node cluster of its own (one monitor, one OSD on memstore) on 127.0.0.1,
# every file under DIR. See docs/s3.md.
#
#   bash scripts/s3-server.sh start DIR   installs what is missing (root, apt-get), starts the
#                                         cluster and the gateway, makes a user, and prints
#                                         AWS_ENDPOINT_URL=..., AWS_ACCESS_KEY_ID=...,
#                                         AWS_SECRET_ACCESS_KEY=..., AWS_REGION=... lines
#                                         (also in DIR/env) a shell can source
#   bash scripts/s3-server.sh stop DIR    stops the daemons started with DIR
#   bash scripts/s3-server.sh env DIR     prints the lines again
#   bash scripts/s3-server.sh install     installs the packages only (scripts/test.sh)
set -euo pipefail

die() { echo "s3-server.sh: $*" >&2; exit 1; }
usage() { echo "usage: bash scripts/s3-server.sh start|stop|env DIR | install" >&2; exit 2; }
cmd=${1:-}
if [ "$cmd" = install ] && [ $# -eq 1 ]; then
  set -- install /tmp
fi
[ $# -eq 2 ] || usage
mkdir -p "$2"
DIR=$(cd "$2" && pwd)
CONF=$DIR/ceph.conf
CEPH=(ceph -c "$CONF" --connect-timeout 20)

# A free TCP port on the loopback.
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

install() {
  local need=()
  command -v ceph-mon >/dev/null || need+=(ceph-mon)
  command -v ceph-osd >/dev/null || need+=(ceph-osd)
  command -v radosgw >/dev/null || need+=(radosgw)
  command -v ceph >/dev/null || need+=(ceph-common)
  [ ${#need[@]} -eq 0 ] && return
  [ "$(id -u)" = 0 ] || die "missing ${need[*]}: install them (apt-get install ${need[*]}) or run as root"
  echo "s3-server.sh: installing ${need[*]} (apt-get)" >&2
  # The packages' own services are not started: this script runs the daemons itself.
  printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
  chmod +x /usr/sbin/policy-rc.d
  local ok=0
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${need[@]}" >&2 ||
    { apt-get update >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y \
      --no-install-recommends "${need[@]}" >&2; } || ok=1
  rm -f /usr/sbin/policy-rc.d
  [ $ok = 0 ] || die "apt-get could not install ${need[*]}"
}

# Waits up to $2 seconds for `$1` (a command) to succeed.
wait_for() {
  local what=$1 limit=$2 i
  for ((i = 0; i < limit * 5; i++)); do
    if eval "$what" >/dev/null 2>&1; then return 0; fi
    sleep 0.2
  done
  return 1
}

start() {
  install
  # A server started before with DIR, or a start that failed half-way: stopped, its files gone.
  stop_daemons
  rm -rf "${DIR:?}"/{mon,osd,run,log,env,ceph.conf,monmap,mon.keyring,admin.keyring,rgw.keyring}
  mkdir -p "$DIR"/{mon,osd/ceph-0,run,log}
  local fsid mon_port rgw_port osd_uuid access secret
  fsid=$(python3 -c 'import uuid; print(uuid.uuid4())')
  osd_uuid=$(python3 -c 'import uuid; print(uuid.uuid4())')
  mon_port=$(free_port)
  rgw_port=$(free_port)
  access=$(python3 -c 'import secrets; print("IOG" + secrets.token_hex(8).upper())')
  secret=$(python3 -c 'import secrets; print(secrets.token_urlsafe(30))')
  cat >"$CONF" <<EOF
[global]
fsid = $fsid
mon host = v2:127.0.0.1:$mon_port
public network = 127.0.0.0/8
ms bind ipv6 = false
auth cluster required = cephx
auth service required = cephx
auth client required = cephx
keyring = $DIR/admin.keyring
run dir = $DIR/run
admin socket = $DIR/run/\$name.asok
pid file = $DIR/run/\$name.pid
log file = $DIR/log/\$name.log
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd crush chooseleaf type = 0
mon allow pool size one = true
mon allow pool delete = true
mon warn on pool no redundancy = false
mon data avail warn = 1
mon data avail crit = 0
osd objectstore = memstore
memstore device bytes = 2147483648
osd data = $DIR/osd/\$cluster-\$id
mon data = $DIR/mon/\$cluster-\$id
mon pg warn min per osd = 0
osd max object name len = 460
osd max object namespace len = 64

[osd]
keyring = $DIR/osd/\$cluster-\$id/keyring

[client.rgw.iogauge]
rgw frontends = beast endpoint=127.0.0.1:$rgw_port tcp_nodelay=1
rgw data = $DIR/run
keyring = $DIR/rgw.keyring
rgw dns name = localhost
# The tail of a deleted object (past its first 4 MiB) is freed by the garbage collector, by
# default two hours later: in a memstore of 2 GiB a run of large objects would fill it.
rgw gc obj min wait = 0
rgw gc processor period = 10
EOF
  ceph-authtool --create-keyring "$DIR/mon.keyring" --gen-key -n mon. --cap mon 'allow *' >/dev/null
  ceph-authtool --create-keyring "$DIR/admin.keyring" --gen-key -n client.admin \
    --cap mon 'allow *' --cap osd 'allow *' --cap mgr 'allow *' >/dev/null
  ceph-authtool "$DIR/mon.keyring" --import-keyring "$DIR/admin.keyring" >/dev/null
  monmaptool --create --addv a "[v2:127.0.0.1:$mon_port]" --fsid "$fsid" "$DIR/monmap" >/dev/null
  ceph-mon -c "$CONF" --mkfs -i a --monmap "$DIR/monmap" --keyring "$DIR/mon.keyring"
  ceph-mon -c "$CONF" -i a
  wait_for '"${CEPH[@]}" mon stat' 30 || die "the monitor did not start (log: $DIR/log/mon.a.log)"
  # The OSD: memstore keeps the objects in the daemon's memory (2 GiB at most).
  "${CEPH[@]}" osd new "$osd_uuid" >/dev/null
  ceph-authtool --create-keyring "$DIR/osd/ceph-0/keyring" --gen-key -n osd.0 >/dev/null
  "${CEPH[@]}" auth add osd.0 osd 'allow *' mon 'allow profile osd' -i "$DIR/osd/ceph-0/keyring" >/dev/null
  ceph-osd -c "$CONF" -i 0 --mkfs --osd-uuid "$osd_uuid" >/dev/null 2>&1 ||
    die "ceph-osd --mkfs failed (log: $DIR/log/osd.0.log)"
  ceph-osd -c "$CONF" -i 0
  wait_for '"${CEPH[@]}" osd stat | grep -q "1 up"' 60 ||
    die "the OSD did not come up (log: $DIR/log/osd.0.log)"
  "${CEPH[@]}" auth get-or-create client.rgw.iogauge mon 'allow rw' osd 'allow rwx' \
    -o "$DIR/rgw.keyring" >/dev/null
  radosgw -c "$CONF" -n client.rgw.iogauge
  wait_for "python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", $rgw_port), 1)'" 90 ||
    die "the gateway did not listen on 127.0.0.1:$rgw_port (log: $DIR/log/client.rgw.iogauge.log)"
  radosgw-admin -c "$CONF" user create --uid=iogauge --display-name=iogauge \
    --access-key="$access" --secret-key="$secret" >/dev/null
  umask 077
  cat >"$DIR/env" <<EOF
AWS_ENDPOINT_URL=http://127.0.0.1:$rgw_port
AWS_ACCESS_KEY_ID=$access
AWS_SECRET_ACCESS_KEY=$secret
AWS_REGION=default
EOF
  # The gateway answers once its user exists; a signed request proves it.
  cat "$DIR/env"
}

stop_daemons() {
  local f pid
  for f in "$DIR"/run/*.pid; do
    [ -e "$f" ] || continue
    pid=$(cat "$f")
    kill "$pid" 2>/dev/null || true
  done
  for f in "$DIR"/run/*.pid; do
    [ -e "$f" ] || continue
    pid=$(cat "$f")
    wait_for "! kill -0 $pid" 20 || kill -9 "$pid" 2>/dev/null || true
    rm -f "$f"
  done
}

case $cmd in
  install) install ;;
  start) start ;;
  stop) stop_daemons ;;
  env) [ -e "$DIR/env" ] || die "no server started with $DIR"; cat "$DIR/env" ;;
  *) usage ;;
esac
