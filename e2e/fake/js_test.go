package fake

// JavaScript's conversions, checked against what Node prints for the same
// input (node -e 'console.log(String(x))', Number(s),
// Buffer.from(s, "base64").toString("hex")).

import (
	"encoding/hex"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNumbersAreStringifiedLikeJavaScript(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   float64
		want string
	}{
		{"an integral float has no fraction", 1.0, "1"},
		{"an exponent literal is written out", 1e3, "1000"},
		{"the largest plain integer", 1e20, "100000000000000000000"},
		{"shortest digits padded with zeros", 123456789012345680000, "123456789012345680000"},
		{"1e21 switches to exponent form", 1e21, "1e+21"},
		{"a negative exponent form", -1e21, "-1e+21"},
		{"an exponent form with a fraction", 1.2345e25, "1.2345e+25"},
		{"a plain fraction", 123.456, "123.456"},
		{"a tenth", 0.1, "0.1"},
		{"the smallest plain fraction", 1e-6, "0.000001"},
		{"leading zeros after the point", 0.000001234, "0.000001234"},
		{"below 1e-6 switches to exponent form", 1e-7, "1e-7"},
		{"a small exponent form with a fraction", 1.5e-7, "1.5e-7"},
		{"negative zero", math.Copysign(0, -1), "0"},
		{"two to the 53rd", 1 << 53, "9007199254740992"},
		{"the largest double", math.MaxFloat64, "1.7976931348623157e+308"},
		{"the smallest denormal", 5e-324, "5e-324"},
		{"infinity", math.Inf(1), "Infinity"},
		{"negative infinity", math.Inf(-1), "-Infinity"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, jsNumberString(tt.in))
		})
	}
}

func TestStringsAreNumberedLikeJavaScript(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want float64 // NaN for NaN
	}{
		{"surrounding whitespace is skipped", " 0x10 ", 16},
		{"binary", "0b11", 3},
		{"octal", "0o7", 7},
		{"a signed hexadecimal is NaN", "-0x10", math.NaN()},
		{"a plus-signed hexadecimal is NaN", "+0x10", math.NaN()},
		{"an exponent", "1e3", 1000},
		{"a leading point", ".5", 0.5},
		{"a trailing point", "5.", 5},
		{"a lone point is NaN", ".", math.NaN()},
		{"digit separators are NaN", "1_000", math.NaN()},
		{"Infinity", "Infinity", math.Inf(1)},
		{"negative Infinity", "-Infinity", math.Inf(-1)},
		{"Go's inf is NaN", "inf", math.NaN()},
		{"U+FEFF is whitespace", "\ufeff5", 5},
		{"U+0085 is not whitespace", "\u00855", math.NaN()},
		{"a bare prefix is NaN", "0x", math.NaN()},
		{"an exponent without digits is NaN", "1e", math.NaN()},
		{"a signed fraction with an exponent", "+.5e-1", 0.05},
		{"leading zeros are decimal", "00012", 12},
		{"a hexadecimal float is NaN", "0x1p3", math.NaN()},
		{"blank is zero", "  ", 0},
		{"beyond float64 is Infinity", "1e400", math.Inf(1)},
		{"a hexadecimal beyond 2^53 rounds to nearest", "0x20000000000001", 1 << 53},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := jsToNumber(tt.in)
			if math.IsNaN(tt.want) {
				assert.True(t, math.IsNaN(got), "got %v", got)
				return
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestBase64IsDecodedLikeNode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, wantHex string
	}{
		{"empty", "", ""},
		{"a lone sextet yields nothing", "Q", ""},
		{"two sextets yield one byte", "QQ", "41"},
		{"three sextets yield two bytes", "QUI", "4142"},
		{"a whole group", "QUJD", "414243"},
		{"a group and a pair", "QUJDRA", "41424344"},
		{"padding", "QQ==", "41"},
		{"short padding", "QQ=", "41"},
		{"decoding stops at the first '='", "QQ==QUJD", "41"},
		{"a leading '=' yields nothing", "=QUJD", ""},
		{"'=' inside a group", "QUJ=D", "4142"},
		{"a trailing lone sextet is dropped", "QUJDR", "414243"},
		{"whitespace is skipped", "Q\nU\tJ\rD", "414243"},
		{"any other character is skipped", "a b$c=", "69b7"},
		{"the base64url alphabet", "-_-_", "fbffbf"},
		{"the base64 alphabet", "+/+/", "fbffbf"},
		{"padding bits are dropped", "QR==", "41"},
		{"a code unit is read by its low byte", "ŁUJD", "014243"},
		{"a low byte outside the alphabet is skipped", "QUJD\u0100", "414243"},
		{"a surrogate whose low byte is '=' stops decoding", "🙂QUJD", ""},
		{"a no-break space is skipped", "YWJj\u00a0ZGVm", "616263646566"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.wantHex, hex.EncodeToString(nodeBase64(tt.in)))
		})
	}
}

func TestFilenamesAreMadeSafeLikeCreateUpload(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"a plain name is kept", "report.bin", "report.bin"},
		{"separators become underscores", `a/b\c`, "a_b_c"},
		{"a dot run becomes one underscore", "a...b", "a_b"},
		{"a parent reference", "../x", "__x"},
		{"leading dots go", ".hidden", "hidden"},
		{"surrounding whitespace goes after the dots", " .x ", ".x"},
		{"nothing left falls back to the stream", ".", "upload_s1"},
		{"empty falls back to the stream", "", "upload_s1"},
		{"a NUL is kept", "a\x00b", "a\x00b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, safeFilename(tt.in, "s1"))
		})
	}
}
