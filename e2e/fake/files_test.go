package fake_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/e2e/fake"
	"github.com/snowluma/snowluma-mcp/internal/schema"
)

// TestGroupFileListsAnswerInSnowLumasShape: get_group_root_files lists the
// root's files and folders, and get_group_files_by_folder one folder's
// files (folder_id, else its alias folder, else the root), in the members
// getGroupFiles writes, valid against the catalog's returnsSchema.
func TestGroupFileListsAnswerInSnowLumasShape(t *testing.T) {
	t.Parallel()
	const group = 555000111
	srv.PutGroupFolder(group, fake.GroupFolder{ID: "/d1", Name: "docs", Creator: 10003, CreatorName: "Bob"})
	srv.PutGroupFile(group, fake.GroupFile{ID: "/f1", Name: "a.txt", Uploader: 10002, UploaderName: "Alice", Size: 5})
	srv.PutGroupFile(group, fake.GroupFile{Folder: "/d1", ID: "/f2", Name: "b.txt", Size: 7})
	root := `{"files":[{"group_id":555000111,"file_id":"/f1","file_name":"a.txt","busid":102,"file_size":5,"upload_time":1764000000,` +
		`"dead_time":0,"modify_time":1764000000,"download_times":0,"uploader":10002,"uploader_name":"Alice"}],` +
		`"folders":[{"group_id":555000111,"folder_id":"/d1","folder_name":"docs","create_time":1764000000,"creator":10003,"create_name":"Bob","total_file_count":1}]}`
	inFolder := `{"files":[{"group_id":555000111,"file_id":"/f2","file_name":"b.txt","busid":102,"file_size":7,"upload_time":1764000000,` +
		`"dead_time":0,"modify_time":1764000000,"download_times":0,"uploader":0,"uploader_name":""}],"folders":[]}`
	cat, err := catalog.Load()
	require.NoError(t, err)
	for _, tt := range []struct {
		name, action, params, want string
	}{
		{"the root", "get_group_root_files", `{"group_id":555000111}`, root},
		{"a folder by folder_id", "get_group_files_by_folder", `{"group_id":555000111,"folder_id":"/d1"}`, inFolder},
		{"a folder by its alias folder", "get_group_files_by_folder", `{"group_id":555000111,"folder":"/d1"}`, inFolder},
		{"folder_id before folder", "get_group_files_by_folder", `{"group_id":555000111,"folder_id":"/d1","folder":"/"}`, inFolder},
		{"the root when no folder is named", "get_group_files_by_folder", `{"group_id":555000111,"folder_id":" "}`, root},
		{"empty lists for a group with no files", "get_group_root_files", `{"group_id":555000112}`, `{"files":[],"folders":[]}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := post(t, `{"action":"`+tt.action+`","params":`+tt.params+`}`, nil)
			var env struct {
				Status string          `json:"status"`
				Data   json.RawMessage `json:"data"`
			}
			require.NoError(t, json.Unmarshal([]byte(r.body), &env), r.body)
			require.Equal(t, "ok", env.Status, r.body)
			assert.Equal(t, tt.want, string(env.Data))
			a, ok := cat.Lookup(tt.action)
			require.True(t, ok)
			v, err := schema.Compile(a.ReturnsSchema)
			require.NoError(t, err)
			assert.NoError(t, v.Validate(env.Data, "data"))
		})
	}
	r := post(t, `{"action":"get_group_root_files","params":{}}`, nil)
	assert.Equal(t, `{"status":"failed","retcode":1400,"data":null,"wording":"group_id: is required"}`, r.body)
}
