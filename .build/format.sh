#!/bin/sh
# Formats every Java file of the repository with google-java-format (the house format: 2-space
# indent, 100 columns, imports sorted). With --check it changes nothing and fails, naming the
# files, if one is not formatted: CI runs that (.ci/run). Run it without flags before a commit.
#
# Why a script and not the spotless Maven plugin: spotless 3.11 runs google-java-format inside
# Maven's JVM, where on JDK 25 every file failed with an InvocationTargetException; the
# formatter's own jar, run as below, works.
set -eu
cd "$(dirname "$0")/.."
. .mvn/find-jdk25.sh

version=1.37.0
jar="${HOME}/.m2/repository/com/google/googlejavaformat/google-java-format/${version}/google-java-format-${version}-all-deps.jar"
if [ ! -f "$jar" ]; then
  ./mvnw -q -B dependency:get \
    -Dartifact="com.google.googlejavaformat:google-java-format:${version}:jar:all-deps" >&2
fi

if [ "${1-}" = --check ]; then
  mode="--dry-run --set-exit-if-changed"
else
  mode="--replace"
fi
# the formatter reads javac's internals: the same flags the build gives ErrorProne
# shellcheck disable=SC2046,SC2086
git ls-files -z --cached --others --exclude-standard '*.java' | xargs -0 "$JAVA_HOME/bin/java" $(cat .mvn/jvm.config) -jar "$jar" $mode
