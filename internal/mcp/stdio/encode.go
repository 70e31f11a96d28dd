package stdio

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// encodeLine encodes msg as one output line, newline included.
//
// A successful response is most of what a server writes, and its result is
// already JSON: the SDK encoded it, compact and without HTML escaping, just
// before handing the response over. jsonrpc.EncodeMessage would encode it
// again, and encoding/json re-validates and re-compacts a json.RawMessage
// byte by byte (for a 21 KB tools/list that was a third of the round trip).
// So such a response is framed here around the result as it is, giving the
// same bytes EncodeMessage gives (TestEncodeLineMatchesEncodeMessage).
// Everything else goes through EncodeMessage.
func encodeLine(msg jsonrpc.Message) ([]byte, error) {
	if resp, ok := msg.(*jsonrpc.Response); ok && resp.Error == nil && len(resp.Result) > 0 {
		if id, ok := encodeID(resp.ID); ok {
			result := resp.Result
			line := make([]byte, 0, len(`{"jsonrpc":"2.0","id":,"result":}`)+len(id)+len(result)+1)
			line = append(line, `{"jsonrpc":"2.0","id":`...)
			line = append(line, id...)
			line = append(line, `,"result":`...)
			line = append(line, result...)
			return append(line, "}\n"...), nil
		}
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// encodeID encodes a response's id as EncodeMessage does; ok is false for
// an id it leaves out (none) or one of a kind it does not know.
func encodeID(id jsonrpc.ID) ([]byte, bool) {
	switch v := id.Raw().(type) {
	case int64:
		return strconv.AppendInt(nil, v, 10), true
	case string:
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if enc.Encode(v) != nil {
			return nil, false
		}
		return bytes.TrimRight(buf.Bytes(), "\n"), true
	}
	return nil, false
}
