package services

import "bytes"

// mimeSignatures: every media type the host accepts, with the check its
// leading bytes must pass. The host never trusts the declared type alone:
// a content part's MIME type reaches a model provider.
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

func prefix(p string) func([]byte) bool {
	return func(h []byte) bool { return bytes.HasPrefix(h, []byte(p)) }
}

func riff(form string) func([]byte) bool {
	return func(h []byte) bool { return len(h) >= 12 && string(h[:4]) == "RIFF" && string(h[8:12]) == form }
}

func supportedMIME() []string {
	return []string{"image/png", "image/jpeg", "image/gif", "image/webp", "audio/wav", "audio/mpeg", "audio/ogg", "audio/flac"}
}
