package fake

// Node's base64 decoder, which turns upload_file_stream's chunk_data into
// bytes (Buffer.from(p.chunk_data, 'base64') in handleUpload,
// packages/onebot/src/actions/stream-file.ts). It never fails: Node's
// decoder (src/string_bytes.cc, falling back from simdutf to the forgiving
// nbytes Base64Decode whenever the input is not strict base64) reads the
// low byte of each UTF-16 code unit, takes both the base64 and base64url
// alphabets, skips every other character, stops at the first '=', and
// drops a lone trailing sextet.

import "unicode/utf16"

// unbase64 maps a byte to its sextet, or 0xFF when it is not in either
// alphabet.
var unbase64 = func() (t [256]byte) {
	const std = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for i := range t {
		t[i] = 0xFF
	}
	for i := range len(std) {
		t[std[i]] = byte(i)
	}
	t['-'], t['_'] = 62, 63
	return t
}()

// nodeBase64 is Buffer.from(s, 'base64').
func nodeBase64(s string) []byte {
	units := utf16.Encode([]rune(s)) // a JavaScript string's code units
	out := make([]byte, 0, len(units)*3/4)
	var prev byte // the previous sextet of the current group
	n := 0        // sextets read so far
	for _, u := range units {
		c := byte(u) // the decoder truncates a code unit to its low byte
		if c == '=' {
			break
		}
		v := unbase64[c]
		if v == 0xFF {
			continue
		}
		switch n % 4 {
		case 1:
			out = append(out, prev<<2|v>>4)
		case 2:
			out = append(out, prev<<4|v>>2)
		case 3:
			out = append(out, prev<<6|v)
		}
		prev = v
		n++
	}
	return out
}
