package schema

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
)

// Int is an integer argument. JSON Schema counts 5.0 as the integer 5 and so
// does Int, where Go's decoder alone would refuse it; a fraction or a value
// beyond int64 is an error.
type Int int64

// UnmarshalJSON implements json.Unmarshaler.
func (i *Int) UnmarshalJSON(b []byte) error {
	s := string(bytes.TrimSpace(b))
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		*i = Int(n)
		return nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != math.Trunc(f) || f < math.MinInt64 || f >= math.MaxInt64 {
		return fmt.Errorf("want an integer, got %.40s", s)
	}
	*i = Int(f)
	return nil
}

// Object is a JSON object argument passed on as written, byte for byte (an
// action's OneBot params): numbers, nulls and key order stay the caller's.
type Object []byte

// UnmarshalJSON implements json.Unmarshaler.
func (o *Object) UnmarshalJSON(b []byte) error {
	*o = append((*o)[:0], b...)
	return nil
}

// MarshalJSON implements json.Marshaler.
func (o Object) MarshalJSON() ([]byte, error) {
	if len(o) == 0 {
		return []byte("null"), nil
	}
	return o, nil
}

// Given reports whether the object was present and not null.
func (o Object) Given() bool {
	t := bytes.TrimSpace(o)
	return len(t) > 0 && string(t) != "null"
}
