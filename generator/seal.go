package generator

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
)

// A generated file ends with a checksum of the bytes before it:
//
//	// toolgen checksum: 3f1a9c0b7d2e4f65
//
// so that toolgen can tell a file it wrote from one edited by hand since,
// and refuse to overwrite the edits (Edited).

// checksumPrefix starts a generated file's last line.
const checksumPrefix = "// toolgen checksum: "

// checksumLen is the hex digits kept of the SHA-256: a hand edit is caught
// unless it keeps the same 64 bits, which no editor does by chance.
const checksumLen = 16

// seal appends a blank line and the checksum line to src, a rendered
// file ending in a newline that seal may append to in place.
func seal(src []byte) []byte {
	out := append(src, '\n')
	sum := checksum(out)
	out = append(out, checksumPrefix...)
	out = append(out, sum[:]...)
	return append(out, '\n')
}

// checksum is the first checksumLen hex digits of the SHA-256 of src with
// its line endings made LF: a checkout that turns them into CRLF (git's
// core.autocrlf) is not an edit.
func checksum(src []byte) [checksumLen]byte {
	h := sha256.New()
	for len(src) > 0 {
		i := bytes.IndexByte(src, '\r')
		if i < 0 {
			h.Write(src)
			break
		}
		h.Write(src[:i])
		if i+1 >= len(src) || src[i+1] != '\n' {
			h.Write([]byte{'\r'}) // a lone CR is content
		}
		src = src[i+1:]
	}
	var full [sha256.Size]byte
	var out [checksumLen]byte
	hex.Encode(out[:], h.Sum(full[:0])[:checksumLen/2])
	return out
}

// bom is the UTF-8 byte order mark some editors put at the start of a
// file; like CRLF line endings, it is not an edit.
const bom = "\uFEFF"

// unseal splits src, a generated file, into the bytes its checksum line
// covers and the checksum that line holds, with blanks after it trimmed;
// ok is false when src has no checksum line. A leading BOM is dropped.
func unseal(src []byte) (body, sum []byte, ok bool) {
	src = bytes.TrimPrefix(src, []byte(bom))
	i := bytes.LastIndex(src, []byte("\n"+checksumPrefix))
	if i < 0 {
		return src, nil, false
	}
	return src[:i+1], bytes.TrimRight(src[i+1+len(checksumPrefix):], " \t\r\n"), true
}

// Edited reports whether src, the content of a file toolgen generated,
// was changed after toolgen wrote it: its checksum line no longer matches
// the bytes before it, or text follows that line. A file without a
// checksum line (written by a toolgen before checksums) is not known to
// be edited. CRLF line endings and a leading BOM are not edits.
func Edited(src []byte) bool {
	body, line, ok := unseal(src)
	if !ok {
		return false
	}
	sum := checksum(body)
	return !bytes.Equal(line, sum[:])
}

// SameContent reports whether old, a generated file on disk, holds what
// now, a file just generated, holds, but for the checksum value: the lines
// before the checksum line are the same (CRLF line endings and a leading
// BOM aside) and nothing follows it. Overwriting such an old file loses
// nothing even when it is Edited: after a git merge of two branches that
// both regenerated, the bodies merge cleanly and only the checksum lines
// conflict, or one side's checksum line was kept.
func SameContent(old, now []byte) bool {
	oldBody, oldSum, ok := unseal(old)
	if !ok || bytes.ContainsAny(oldSum, "\r\n") {
		return false // no checksum line, or text after it
	}
	nowBody, _, ok := unseal(now)
	return ok && bytes.Equal(toLF(oldBody), toLF(nowBody))
}

// toLF is src with its CRLF line endings made LF.
func toLF(src []byte) []byte {
	return bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
}
