# Sourced by ./mvnw and ./cairn: points JAVA_HOME at a JDK 25 or newer, or stops with
# a message saying what to install. Cairn is built on the final FFM API of Java 25, so
# an older JDK cannot compile or run it; `java` on PATH is often older than that.
# Search order: $CAIRN_JAVA_HOME, $JAVA_HOME, the usual install roots.
cairn_java_feature() {
  # prints the feature release of the JDK at $1 (e.g. 25), or nothing
  [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] || return 0
  if [ -f "$1/release" ]; then
    sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" | head -n 1
  fi
}
cairn_find_jdk25() {
  # callers may run with `set -f` (mvnw does); the search needs globbing
  case $- in *f*) cairn_noglob=1; set +f ;; *) cairn_noglob= ;; esac
  for cairn_candidate in "${CAIRN_JAVA_HOME-}" "${JAVA_HOME-}" \
      /usr/lib/jvm/* /usr/java/* /opt/java/* /opt/jdk* "$HOME"/.sdkman/candidates/java/* \
      "$HOME"/.jdks/* /Library/Java/JavaVirtualMachines/*/Contents/Home; do
    [ -n "$cairn_candidate" ] && [ -d "$cairn_candidate" ] || continue
    cairn_feature=$(cairn_java_feature "$cairn_candidate")
    if [ -n "$cairn_feature" ] && [ "$cairn_feature" -ge 25 ] 2>/dev/null; then
      printf '%s\n' "$cairn_candidate"
      [ -z "$cairn_noglob" ] || set -f
      return 0
    fi
  done
  [ -z "$cairn_noglob" ] || set -f
  return 1
}
if cairn_jdk=$(cairn_find_jdk25); then
  JAVA_HOME=$cairn_jdk
  export JAVA_HOME
else
  echo "Cairn needs a JDK 25 or newer, and none was found (looked at \$CAIRN_JAVA_HOME, \$JAVA_HOME and /usr/lib/jvm)." >&2
  echo "Install one, for example Eclipse Temurin 25 (apt install temurin-25-jdk, or https://adoptium.net), or set JAVA_HOME to it." >&2
  exit 1
fi
