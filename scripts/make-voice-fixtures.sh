#!/usr/bin/env bash
# Makes the voice-note fixtures in test/fixtures/media/: real small OGG/Opus voice notes, spoken by
# espeak-ng and encoded by opusenc (mono, 16 kbit/s), as WhatsApp sends voice notes. Also writes
# transcripts.json (sha256 → text, the fake speech server's --transcripts format) and README.md.
# Needs: espeak-ng, opus-tools (Debian: apt-get install espeak-ng opus-tools), sha256sum.
# Run from anywhere: scripts/make-voice-fixtures.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=test/fixtures/media
mkdir -p "$out"
for tool in espeak-ng opusenc sha256sum; do
  command -v "$tool" >/dev/null || { echo "make-voice-fixtures: $tool is not installed" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# name|espeak-ng voice|words per minute|text
notes=(
  "voice-note-en|en-gb|150|I transferred fifteen thousand naira this morning, but my account has not been credited."
  "voice-note-pidgin|en|140|I transfer fifteen thousand naira since morning, my account never credit. Abeg, wetin dey happen to my order?"
)

json="{"
rows=""
for note in "${notes[@]}"; do
  IFS='|' read -r name voice speed text <<<"$note"
  espeak-ng -v "$voice" -s "$speed" -w "$work/$name.wav" "$text"
  # A fixed serial number and no date, so the same tools make the same bytes.
  opusenc --quiet --bitrate 16 --downmix-mono --serial 1 "$work/$name.wav" "$out/$name.ogg"
  magic=$(head -c 4 "$out/$name.ogg")
  head_tag=$(dd if="$out/$name.ogg" bs=1 skip=28 count=8 2>/dev/null)
  if [ "$magic" != "OggS" ] || [ "$head_tag" != "OpusHead" ]; then
    echo "make-voice-fixtures: $name.ogg is not OGG/Opus" >&2
    exit 1
  fi
  size=$(wc -c <"$out/$name.ogg")
  [ "$size" -lt 51200 ] || { echo "make-voice-fixtures: $name.ogg is $size bytes (over 50 KB)" >&2; exit 1; }
  sum=$(sha256sum "$out/$name.ogg" | cut -d' ' -f1)
  json+=$'\n'"  \"$sum\": \"$text\","
  rows+="| \`$name.ogg\` | $size | \`$voice\` | $text | \`$sum\` |"$'\n'
done
printf '%s\n}\n' "${json%,}" >"$out/transcripts.json"

cat >"$out/README.md" <<README
# Voice-note fixtures

Small real voice notes, as WhatsApp sends them (OGG container, Opus codec, mono), for the speech tests
and the fake speech server. Written by \`scripts/make-voice-fixtures.sh\`, which also wrote this page:
run it again after changing a sentence, and commit what it writes.

How they were made: \`espeak-ng\` ($(espeak-ng --version | head -n1 | cut -d' ' -f1-4)) speaks the sentence
into a WAV file, and \`opusenc\` ($(opusenc --version | head -n1)) encodes it at 16 kbit/s, mixed down to
mono, with a fixed stream serial number. The transcripts are the sentences given to espeak-ng, not what a
speech model hears (the Pidgin one is read with an English voice: espeak-ng has no Nigerian Pidgin voice).

| file | bytes | espeak-ng voice | transcript | sha256 |
| ---- | ----- | --------------- | ---------- | ------ |
${rows}
\`transcripts.json\` maps each sha256 to its transcript: the format of \`sharpsharp fake-stt --transcripts\`.

Licence: made by this project with free software from its own sentences; the files are under the
project's licence, with no third-party rights.
README
echo "wrote $(ls "$out"/*.ogg | wc -l) voice notes, transcripts.json and README.md in $out"
