#!/usr/bin/env bash
# ensure-test-deps.sh — make sure the system pieces the test suite needs are
# present on a Debian 12 (bookworm) machine, installing only what is missing:
#
#   1. PostgreSQL running at 127.0.0.1:5432 (the Debian cluster "<ver> main")
#   2. pgvector >= 0.8 installed into that PostgreSQL. Debian 12 ships no
#      pgvector package, so Debian trixie's *source* package is fetched (with a
#      throw-away apt config; the machine's own apt sources/lists are not
#      touched) and built against postgresql-server-dev-<ver>.
#   3. Chromium at /usr/bin/chromium, plus fonts-liberation (text in screenshots)
#   4. PgBouncer (Debian's package) running in transaction mode at 127.0.0.1:6433 in front of
#      that PostgreSQL, for the tests of a pooled DATABASE_URL (db/migrate.int.test.ts, the
#      "pgbouncer" target of tests/db.ts). Its own instance (config, log and pid under
#      /tmp/lifeline-pgbouncer), not the system one.
#   5. curl and jq, which docs/api.md's examples use (tests/api-doc.int.test.ts runs them).
#   6. espeak-ng (Debian's package): real speech, made at test time, for the dictation tests
#      (tests/fixtures/speech.ts: the transcription route's tests and the fake microphone of e2e).
#
# Idempotent: each step is skipped when already done; a run with everything
# present takes well under a second and touches no network. Needs root (or
# password-less sudo) only when something has to be installed. Works without
# stdin (CI). Exits non-zero if anything it had to install failed.
#
# Env: VERBOSE=1 streams apt/make output instead of logging it to a temp file.
set -Eeuo pipefail

PG_HOST=127.0.0.1
PG_PORT=5432
PG_TEST_DB="test"
PGVECTOR_MIN=0.8.0
PG_READY_TIMEOUT=30   # seconds to wait for PostgreSQL after starting it
PGBOUNCER_PORT=6433
PGBOUNCER_DIR=/tmp/lifeline-pgbouncer

export DEBIAN_FRONTEND=noninteractive
export LC_ALL=C

say() { printf '%s\n' "$*"; }
die() { printf 'ensure-test-deps: ERROR: %s\n' "$*" >&2; exit 1; }

# ---------------------------------------------------------------- helpers ---
SUDO=()
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then
  SUDO=(sudo -n)
fi
need_root() {
  [ "$(id -u)" -eq 0 ] || [ ${#SUDO[@]} -gt 0 ] ||
    die "$1 needs root (run as root or with password-less sudo)"
}

WORK=""   # temp dir, created on first install
LOG=""
cleanup() {
  local rc=$?
  if [ -n "$WORK" ]; then rm -rf "$WORK"; fi
  if [ "$rc" -eq 0 ] && [ -n "$LOG" ]; then rm -f "$LOG"; fi   # kept on failure
}
trap cleanup EXIT
workdir() {
  if [ -z "$WORK" ]; then
    WORK=$(mktemp -d "${TMPDIR:-/tmp}/ensure-test-deps.XXXXXX")
    chmod 755 "$WORK"   # apt's unprivileged _apt user must reach into it
    LOG=$(mktemp "${TMPDIR:-/tmp}/ensure-test-deps.log.XXXXXX")
  fi
}

# run DESCRIPTION CMD... : run quietly (output to $LOG); on failure show the
# tail of the log and exit non-zero.
run() {
  local desc=$1; shift
  workdir
  if [ "${VERBOSE:-0}" = 1 ]; then
    "$@" </dev/null || die "$desc failed (command: $*)"
  elif ! "$@" </dev/null >>"$LOG" 2>&1; then
    printf -- '--- last lines of %s ---\n' "$LOG" >&2
    tail -n 40 "$LOG" >&2
    die "$desc failed (command: $*; full log: $LOG)"
  fi
}

pkg_installed() {
  [ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null || true)" = installed ]
}

APT_OPTS=(-y -q --no-install-recommends -o DPkg::Lock::Timeout=300
          -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold)
APT_UPDATED=0
apt_update_once() {
  [ "$APT_UPDATED" = 1 ] && return 0
  run "apt-get update" "${SUDO[@]}" apt-get update -q -o DPkg::Lock::Timeout=300
  APT_UPDATED=1
}
# apt_install PKG... : install those of PKG not yet installed (update first,
# at most once per run, and only if something is actually missing).
apt_install() {
  local p missing=()
  for p in "$@"; do pkg_installed "$p" || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  need_root "installing ${missing[*]}"
  apt_update_once
  run "apt-get install ${missing[*]}" "${SUDO[@]}" apt-get install "${APT_OPTS[@]}" "${missing[@]}"
}

pg_ready() { pg_isready -q -h "$PG_HOST" -p "$PG_PORT" -t 2 </dev/null >/dev/null 2>&1; }

version_ge() {   # version_ge A B : A >= B
  if command -v dpkg >/dev/null 2>&1; then dpkg --compare-versions "$1" ge "$2"
  else [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n 1)" = "$2" ]; fi
}

# the highest PostgreSQL major version with a cluster config in /etc/postgresql
pg_major() {
  [ -d /etc/postgresql ] || return 0
  local d best=""
  for d in /etc/postgresql/*/; do
    d=${d%/}; d=${d##*/}
    [[ $d =~ ^[0-9]+(\.[0-9]+)?$ ]] || continue
    if [ -z "$best" ] || version_ge "$d" "$best"; then best=$d; fi
  done
  printf '%s' "$best"
}

# default_version from vector.control ('' if not installed)
pgvector_version() {
  local ctl=/usr/share/postgresql/$1/extension/vector.control
  [ -f "$ctl" ] || return 0
  sed -nE "s/^[[:space:]]*default_version[[:space:]]*=[[:space:]]*'([^']*)'.*/\1/p" "$ctl" | head -n 1
}

# --------------------------------------------------------- non-Debian path ---
if [ ! -r /etc/debian_version ]; then
  say "not a Debian system: this script only installs on Debian; checking what is present"
  ok=1
  if command -v pg_isready >/dev/null 2>&1 && pg_ready; then
    say "postgresql: running at $PG_HOST:$PG_PORT"
    v=$(psql -h "$PG_HOST" -p "$PG_PORT" -U postgres -d "$PG_TEST_DB" -Atqc \
          "SELECT default_version FROM pg_available_extensions WHERE name='vector'" </dev/null 2>/dev/null || true)
    if [ -n "$v" ] && version_ge "$v" "$PGVECTOR_MIN"; then
      say "pgvector $v: already installed"
    else
      say "pgvector: NEEDED (>= $PGVECTOR_MIN, found '${v:-none}'); build from https://github.com/pgvector/pgvector"; ok=0
    fi
  else
    say "postgresql: NEEDED — a PostgreSQL server at $PG_HOST:$PG_PORT (user postgres, trust auth, db '$PG_TEST_DB')"; ok=0
    say "pgvector: NEEDED (>= $PGVECTOR_MIN) in that server"
  fi
  if command -v chromium >/dev/null 2>&1; then
    say "chromium: already installed ($(command -v chromium))"
  else
    say "chromium: NEEDED — a Chromium binary named 'chromium' on PATH"; ok=0
  fi
  if command -v espeak-ng >/dev/null 2>&1; then
    say "espeak-ng: already installed ($(command -v espeak-ng))"
  else
    say "espeak-ng: NEEDED — a speech synthesiser named 'espeak-ng' on PATH"; ok=0
  fi
  [ "$ok" = 1 ] && exit 0
  exit 1
fi

# --------------------------------------------------------- 1. PostgreSQL ---
PGVER=$(pg_major)
[ -n "$PGVER" ] || die "no PostgreSQL cluster found in /etc/postgresql (expected Debian's postgresql-15 with cluster 'main')"

if pg_ready; then
  say "postgresql $PGVER: already running at $PG_HOST:$PG_PORT"
else
  say "postgresql $PGVER: not running, starting cluster '$PGVER main' ..."
  need_root "starting PostgreSQL"
  run "pg_ctlcluster $PGVER main start" \
    "${SUDO[@]}" pg_ctlcluster --skip-systemctl-redirect "$PGVER" main start
  deadline=$((SECONDS + PG_READY_TIMEOUT))
  until pg_ready; do
    [ "$SECONDS" -lt "$deadline" ] ||
      die "PostgreSQL did not become ready at $PG_HOST:$PG_PORT within ${PG_READY_TIMEOUT}s"
    sleep 0.5
  done
  say "postgresql $PGVER: started, accepting connections at $PG_HOST:$PG_PORT"
fi

# ----------------------------------------------------------- 2. pgvector ---
# URI of the machine's Debian mirror (the one serving our own release), so the
# trixie source is fetched from the same host/snapshot the machine already uses.
debian_mirror() {
  local codename uri
  # shellcheck disable=SC1091
  codename=$(. /etc/os-release 2>/dev/null && printf '%s' "${VERSION_CODENAME:-}")
  # shellcheck disable=SC2016  # $(...) here is apt's format syntax, not the shell's
  uri=$(apt-get indextargets --no-release-info --format '$(RELEASE) $(REPO_URI)' 2>/dev/null |
          awk -v c="${codename:-bookworm}" '$1 == c { print $2; exit }')
  printf '%s' "${uri:-http://deb.debian.org/debian/}"
}

install_pgvector() {
  local ver=$1 mirror src lists srcdir tarball f pgconfig built keyopt=""
  need_root "installing pgvector"
  workdir

  # Debian / PGDG repos that do carry a binary package: use it.
  local cand
  cand=$(apt-cache policy "postgresql-$ver-pgvector" 2>/dev/null | awk '/Candidate:/ { print $2 }')
  if [ -n "$cand" ] && [ "$cand" != "(none)" ] && version_ge "${cand%%-*}" "$PGVECTOR_MIN"; then
    apt_install "postgresql-$ver-pgvector"
    return 0
  fi

  # Build deps (libc6-dev: gcc only *recommends* it). Debian's server-dev
  # package also pulls clang + llvm-dev (for JIT bitcode): big, but only once.
  apt_install "postgresql-server-dev-$ver" make gcc libc6-dev

  # Fetch Debian trixie's pgvector source with a throw-away apt config.
  mirror=$(debian_mirror)
  lists=$WORK/lists; src=$WORK/src
  mkdir -p "$lists/partial" "$src" "$WORK/build"
  if id _apt >/dev/null 2>&1; then chown _apt "$lists/partial" "$src" 2>/dev/null || true; fi
  [ -r /usr/share/keyrings/debian-archive-keyring.gpg ] &&
    keyopt="[signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] "
  printf 'deb-src %s%s trixie main\n' "$keyopt" "$mirror" >"$WORK/trixie-src.list"
  local tmpapt=(-o "Dir::Etc::sourcelist=$WORK/trixie-src.list" -o Dir::Etc::sourceparts=-
                -o "Dir::State::Lists=$lists" -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=
                -o Acquire::Languages=none)
  run "apt-get update (temporary trixie deb-src list, $mirror)" apt-get "${tmpapt[@]}" update -q
  cd "$src"   # apt-get source downloads into the current directory
  run "apt-get source --download-only pgvector (trixie)" \
    apt-get "${tmpapt[@]}" source --download-only pgvector
  cd - >/dev/null

  tarball=""
  for f in "$src"/pgvector_*.orig.tar.*; do [ -f "$f" ] && tarball=$f && break; done
  [ -n "$tarball" ] || die "pgvector source download produced no .orig tarball (see $LOG)"
  run "extracting $(basename "$tarball")" tar -xf "$tarball" -C "$WORK/build"
  srcdir=$(find "$WORK/build" -mindepth 2 -maxdepth 2 -name vector.control -printf '%h\n' | head -n 1)
  [ -n "$srcdir" ] || die "no vector.control in $(basename "$tarball")"
  built=$(sed -nE "s/^default_version = '([^']*)'.*/\1/p" "$srcdir/vector.control")
  version_ge "$built" "$PGVECTOR_MIN" || die "trixie ships pgvector $built, need >= $PGVECTOR_MIN"

  # Build for *this* server (not whatever /usr/bin/pg_config points at).
  # OPTFLAGS="" drops -march=native (what Debian's no-native patch does).
  pgconfig=/usr/lib/postgresql/$ver/bin/pg_config
  [ -x "$pgconfig" ] || pgconfig=pg_config
  run "building pgvector $built" make -C "$srcdir" PG_CONFIG="$pgconfig" OPTFLAGS="" -j"$(nproc 2>/dev/null || echo 2)"
  run "installing pgvector $built" "${SUDO[@]}" make -C "$srcdir" PG_CONFIG="$pgconfig" OPTFLAGS="" install
}

have_vec=$(pgvector_version "$PGVER")
if [ -n "$have_vec" ] && version_ge "$have_vec" "$PGVECTOR_MIN"; then
  say "pgvector $have_vec: already installed"
else
  say "pgvector: ${have_vec:+found $have_vec, }installing >= $PGVECTOR_MIN (build of Debian trixie source) ..."
  install_pgvector "$PGVER"
  have_vec=$(pgvector_version "$PGVER")
  [ -n "$have_vec" ] || die "pgvector install finished but vector.control is missing for PostgreSQL $PGVER"
  got=$(PGOPTIONS='-c client_min_messages=warning' psql -h "$PG_HOST" -p "$PG_PORT" -U postgres -d "$PG_TEST_DB" -v ON_ERROR_STOP=1 -Atq \
          -c "CREATE EXTENSION IF NOT EXISTS vector" \
          -c "SELECT extversion FROM pg_extension WHERE extname='vector'" </dev/null 2>&1) ||
    die "pgvector installed but CREATE EXTENSION vector failed in db '$PG_TEST_DB': $got"
  say "pgvector $have_vec: installed (extension vector $got in db '$PG_TEST_DB')"
fi

# ----------------------------------------------------------- 3. Chromium ---
# fonts-liberation gives headless screenshots readable text.
if [ -x /usr/bin/chromium ]; then
  say "chromium $(dpkg-query -W -f='${Version}' chromium 2>/dev/null || echo '?'): already installed"
  if pkg_installed fonts-liberation; then
    say "fonts-liberation: already installed"
  else
    say "fonts-liberation: installing (apt) ..."
    apt_install fonts-liberation
    say "fonts-liberation: installed"
  fi
else
  say "chromium: installing chromium + fonts-liberation (apt) ..."
  apt_install chromium fonts-liberation   # one apt transaction
  [ -x /usr/bin/chromium ] || die "apt installed chromium but /usr/bin/chromium is missing"
  # smoke test: headless (as root it needs --no-sandbox)
  dom=$(timeout 120 /usr/bin/chromium --headless --no-sandbox --disable-gpu --dump-dom about:blank </dev/null 2>/dev/null) || true
  case $dom in
    *'<html'*) ;;
    *) die "chromium installed but 'chromium --headless --no-sandbox --dump-dom about:blank' did not print a page" ;;
  esac
  say "chromium $(dpkg-query -W -f='${Version}' chromium): installed (headless smoke test ok)"
fi

# ---------------------------------------------------------- 4. PgBouncer ---
# Transaction pooling, as Neon's -pooler host and Supabase's port 6543 run it: the tests' pooled
# DATABASE_URL. Every database of the local server through it (`*`), trusting the same user.
if pg_isready -q -h "$PG_HOST" -p "$PGBOUNCER_PORT" -t 2 </dev/null >/dev/null 2>&1; then
  say "pgbouncer: already running at $PG_HOST:$PGBOUNCER_PORT"
else
  if ! command -v pgbouncer >/dev/null 2>&1 && [ ! -x /usr/sbin/pgbouncer ]; then
    say "pgbouncer: installing (apt) ..."
    apt_install pgbouncer
  fi
  PGBOUNCER_BIN=$(command -v pgbouncer || echo /usr/sbin/pgbouncer)
  need_root "starting pgbouncer as the postgres user"
  mkdir -p "$PGBOUNCER_DIR"
  printf '"postgres" ""\n' >"$PGBOUNCER_DIR/userlist.txt"
  cat >"$PGBOUNCER_DIR/pgbouncer.ini" <<INI
[databases]
* = host=$PG_HOST port=$PG_PORT

[pgbouncer]
listen_addr = $PG_HOST
listen_port = $PGBOUNCER_PORT
unix_socket_dir =
auth_type = trust
auth_file = $PGBOUNCER_DIR/userlist.txt
pool_mode = transaction
max_client_conn = 500
default_pool_size = 5
logfile = $PGBOUNCER_DIR/pgbouncer.log
pidfile = $PGBOUNCER_DIR/pgbouncer.pid
INI
  chown -R postgres "$PGBOUNCER_DIR"
  # As root it must drop to a user (-u); -d daemonises.
  if [ "$(id -u)" -eq 0 ]; then
    run "starting pgbouncer" "$PGBOUNCER_BIN" -d -u postgres "$PGBOUNCER_DIR/pgbouncer.ini"
  else
    run "starting pgbouncer" "${SUDO[@]}" -u postgres "$PGBOUNCER_BIN" -d "$PGBOUNCER_DIR/pgbouncer.ini"
  fi
  deadline=$((SECONDS + PG_READY_TIMEOUT))
  until pg_isready -q -h "$PG_HOST" -p "$PGBOUNCER_PORT" -t 2 </dev/null >/dev/null 2>&1; do
    [ "$SECONDS" -lt "$deadline" ] ||
      die "pgbouncer did not accept connections at $PG_HOST:$PGBOUNCER_PORT (see $PGBOUNCER_DIR/pgbouncer.log)"
    sleep 0.5
  done
  say "pgbouncer $("$PGBOUNCER_BIN" --version 2>/dev/null | head -n 1 | awk '{print $2}'): started in transaction mode at $PG_HOST:$PGBOUNCER_PORT"
fi

# ------------------------------------------------------------ 5. curl, jq ---
# docs/api.md's examples run as written in tests/api-doc.int.test.ts.
missing_tools=()
for tool in curl jq; do command -v "$tool" >/dev/null 2>&1 || missing_tools+=("$tool"); done
if [ "${#missing_tools[@]}" -eq 0 ]; then
  say "curl, jq: already installed"
else
  say "${missing_tools[*]}: installing (apt) ..."
  apt_install "${missing_tools[@]}"
fi

# ---------------------------------------------------------- 6. espeak-ng ---
# Speech for the dictation tests (tests/fixtures/speech.ts): a WAV of a sentence, made at test time.
if command -v espeak-ng >/dev/null 2>&1; then
  say "espeak-ng $(dpkg-query -W -f='${Version}' espeak-ng 2>/dev/null || echo '?'): already installed"
else
  say "espeak-ng: installing (apt) ..."
  apt_install espeak-ng
  command -v espeak-ng >/dev/null 2>&1 || die "apt installed espeak-ng but it is not on PATH"
  say "espeak-ng $(dpkg-query -W -f='${Version}' espeak-ng): installed"
fi
