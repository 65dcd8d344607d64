package services

import (
	"bytes"
	"regexp"
)

// MIME policy of artifact/publish: any syntactically valid type is accepted
// (an artifact may be a log, an archive, application/octet-stream), but the
// eight media types below are never trusted on the declared name alone: their
// leading bytes must carry the type's signature, because an image or audio
// content part's MIME type reaches a model provider. Only an artifact of one
// of these types, so verified, may back such a part (CheckMedia).
var mimeSignatures = map[string]func(head []byte) bool{
	"image/png":  prefix("\x89PNG\r\n\x1a\n"),
	"image/jpeg": prefix("\xff\xd8\xff"),
	"image/gif":  func(h []byte) bool { return prefix("GIF87a")(h) || prefix("GIF89a")(h) },
	"image/webp": riff("WEBP"),
	"audio/wav":  riff("WAVE"),
	"audio/mpeg": func(h []byte) bool {
		// An ID3v2 tag, or an MPEG audio frame sync (11 set bits).
		return prefix("ID3")(h) || (len(h) >= 2 && h[0] == 0xff && h[1]&0xe0 == 0xe0)
	},
	"audio/ogg":  prefix("OggS"),
	"audio/flac": prefix("fLaC"),
}

// mimeHeadBytes is how many leading bytes the signatures need.
const mimeHeadBytes = 12

// mimeMaxBytes bounds a declared MIME type (RFC 6838 allows 127 per name).
const mimeMaxBytes = 255

// mimeSyntax is RFC 6838's type "/" subtype with restricted-name characters,
// lowercase only (so one media type has one spelling in the store) and no
// parameters.
var mimeSyntax = regexp.MustCompile(`^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$`)

// validMIME reports whether s is a MIME type artifact/publish accepts.
func validMIME(s string) bool { return len(s) <= mimeMaxBytes && mimeSyntax.MatchString(s) }

// signatureFor is the byte check for mime: a media type's signature, or a
// check that accepts anything for every other type.
func signatureFor(mime string) func([]byte) bool {
	if sig, ok := mimeSignatures[mime]; ok {
		return sig
	}
	return func([]byte) bool { return true }
}

func prefix(p string) func([]byte) bool {
	return func(h []byte) bool { return bytes.HasPrefix(h, []byte(p)) }
}

func riff(form string) func([]byte) bool {
	return func(h []byte) bool { return len(h) >= 12 && string(h[:4]) == "RIFF" && string(h[8:12]) == form }
}

// mediaTypes lists the verified media types, for messages.
func mediaTypes() []string {
	return []string{"image/png", "image/jpeg", "image/gif", "image/webp", "audio/wav", "audio/mpeg", "audio/ogg", "audio/flac"}
}
