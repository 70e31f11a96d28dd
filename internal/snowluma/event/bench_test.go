package event

import "testing"

// BenchmarkDecodeGroupMessage measures decoding one SnowLuma group message
// of about 450 bytes: the work the hub does for every incoming event.
func BenchmarkDecodeGroupMessage(b *testing.B) {
	frame := []byte(groupMessage)
	b.SetBytes(int64(len(frame)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(frame); err != nil {
			b.Fatal(err)
		}
	}
}
