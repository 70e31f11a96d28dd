package pipeline

// Key is a typed slot on a Call, for a value one stage hands to a later
// stage or to the handler without adding a field to Call: a stage declares
// its key once, at package level,
//
//	var budgetKey = pipeline.NewKey[*budget]("pace.budget")
//
// sets it in its handler (budgetKey.Set(c, b)) and whoever holds the key
// reads it back (b, ok := budgetKey.Get(c)). The key's identity, not its
// name, tells values apart, so two stages cannot collide, and only code
// that can see the key can read the value: a stage that keeps its key
// unexported keeps its value private. A field on Call is still right for
// what many parts read (the action, the params, the OneBot client);
// adding one means editing call.go, which every stage author shares.
//
// Values live on one Call: a background task's run is a new Call, so
// nothing set during the admission reaches it. A Call is handled by one
// goroutine at a time; values are not for handing data across goroutines.
type Key[T any] struct{ name string }

// NewKey returns a new key; name appears only in String, for debugging.
func NewKey[T any](name string) *Key[T] { return &Key[T]{name: name} }

// String is the key's name.
func (k *Key[T]) String() string { return k.name }

// Set stores v on c under k, replacing any earlier value.
func (k *Key[T]) Set(c *Call, v T) {
	if c.values == nil {
		c.values = map[any]any{}
	}
	c.values[k] = v
}

// Get returns the value stored on c under k, and whether there is one.
func (k *Key[T]) Get(c *Call) (T, bool) {
	v, ok := c.values[k].(T)
	return v, ok
}
