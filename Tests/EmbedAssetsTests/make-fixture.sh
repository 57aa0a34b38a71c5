#!/bin/sh
# Makes Fixture/ and lone.txt, the files the EmbedAssets plugin embeds into this test target
# (listed in EmbedAssets.txt). Every kind of content and name the plugin must carry unchanged is
# here: text, UTF-8, CRLF, every byte value, an empty file, spaces and non-ASCII in names,
# nested folders; and the hidden files and folders it must skip.
set -eu
cd "$(dirname "$0")"
rm -rf Fixture lone.txt
mkdir -p Fixture/nested/deeper Fixture/.cache
printf '<!doctype html>\n<title>{{title}}</title>\n<p>Zoë’s page ✓</p>\n' > Fixture/index.html
printf 'body { font: 16px/1.4 system-ui; }\n.warning { color: #b00; }\n' > Fixture/app.css
printf 'line one\r\nline two with trailing blanks  \r\n\tno final newline' > Fixture/crlf.txt
: > Fixture/empty.txt
printf 'spaces, quotes " and a backslash \\ in the name\n' > 'Fixture/name with "spaces" & ünïcode.txt'
python3 -c 'import sys; sys.stdout.buffer.write(bytes(range(256)) + bytes(range(255, -1, -1)))' > Fixture/nested/deeper/bytes.bin
printf 'a file listed on its own, outside the folder\n' > lone.txt
# Hidden: never embedded.
printf 'secret\n' > Fixture/.hidden
printf '\0\0\0\1Bud1\0' > Fixture/.DS_Store
printf 'cached\n' > Fixture/.cache/secret.txt
printf 'hidden inside a folder\n' > Fixture/nested/.keep
