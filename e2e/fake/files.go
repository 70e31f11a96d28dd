package fake

// A group's file system, listed in the shapes SnowLuma's getGroupFiles
// writes (packages/onebot/src/modules/contact-actions.ts) from
// GroupFileApi.list (packages/core/src/bridge/apis/group-file.ts). A file
// sits in the root ("/") or in a folder; folders sit in the root, as QQ's
// do. PutGroupFile and PutGroupFolder stand for what group members upload
// and create.

import (
	"encoding/json"
	"strings"
)

// GroupFile is a file someone uploaded to a group, with the name they gave
// it.
type GroupFile struct {
	// Folder is the folder's id, or "" for the root.
	Folder string
	ID     string
	Name   string
	// Uploader is 0 when QQ names no uploader (GroupFileApi.list writes
	// toInt of a missing uploaderUin).
	Uploader     int64
	UploaderName string
	Size         int64
}

// GroupFolder is a folder someone created in a group's root.
type GroupFolder struct {
	ID          string
	Name        string
	Creator     int64
	CreatorName string
}

// groupFile and groupFolder are one entry as getGroupFiles writes it.
type groupFile struct {
	GroupID       int64  `json:"group_id"`
	FileID        string `json:"file_id"`
	FileName      string `json:"file_name"`
	BusID         int    `json:"busid"`
	FileSize      int64  `json:"file_size"`
	UploadTime    int64  `json:"upload_time"`
	DeadTime      int64  `json:"dead_time"`
	ModifyTime    int64  `json:"modify_time"`
	DownloadTimes int    `json:"download_times"`
	Uploader      int64  `json:"uploader"`
	UploaderName  string `json:"uploader_name"`
}

type groupFolder struct {
	GroupID        int64  `json:"group_id"`
	FolderID       string `json:"folder_id"`
	FolderName     string `json:"folder_name"`
	CreateTime     int64  `json:"create_time"`
	Creator        int64  `json:"creator"`
	CreateName     string `json:"create_name"`
	TotalFileCount int    `json:"total_file_count"`
}

// groupFiles is one group's file system: the files by folder id ("/" the
// root) and the root's folders, in the order they were put.
type groupFiles struct {
	files   map[string][]GroupFile
	folders []GroupFolder
}

// PutGroupFile puts file into group's file system.
func (f *Fake) PutGroupFile(group int64, file GroupFile) {
	if file.Folder == "" {
		file.Folder = "/"
	}
	f.forwards.mu.Lock()
	defer f.forwards.mu.Unlock()
	fs := f.fileSystem(group)
	fs.files[file.Folder] = append(fs.files[file.Folder], file)
}

// PutGroupFolder creates folder in group's root.
func (f *Fake) PutGroupFolder(group int64, folder GroupFolder) {
	f.forwards.mu.Lock()
	defer f.forwards.mu.Unlock()
	fs := f.fileSystem(group)
	fs.folders = append(fs.folders, folder)
}

// fileSystem is group's file system, made on first use. Callers hold
// forwards.mu.
func (f *Fake) fileSystem(group int64) *groupFiles {
	if f.groupFiles == nil {
		f.groupFiles = map[int64]*groupFiles{}
	}
	fs := f.groupFiles[group]
	if fs == nil {
		fs = &groupFiles{files: map[string][]GroupFile{}}
		f.groupFiles[group] = fs
	}
	return fs
}

// listing is what getGroupFiles writes for one folder of group ("/" the
// root): its files, and, in the root, the folders. Both are arrays, never
// null, as SnowLuma maps them from arrays.
func (f *Fake) listing(group int64, folder string) json.RawMessage {
	f.forwards.mu.Lock()
	defer f.forwards.mu.Unlock()
	out := struct {
		Files   []groupFile   `json:"files"`
		Folders []groupFolder `json:"folders"`
	}{Files: []groupFile{}, Folders: []groupFolder{}}
	fs := f.groupFiles[group]
	if fs == nil {
		return mustJSON(out)
	}
	for _, file := range fs.files[folder] {
		out.Files = append(out.Files, groupFile{GroupID: group, FileID: file.ID, FileName: file.Name, BusID: 102,
			FileSize: file.Size, UploadTime: 1764000000, ModifyTime: 1764000000,
			Uploader: file.Uploader, UploaderName: file.UploaderName})
	}
	if folder == "/" {
		for _, d := range fs.folders {
			out.Folders = append(out.Folders, groupFolder{GroupID: group, FolderID: d.ID, FolderName: d.Name,
				CreateTime: 1764000000, Creator: d.Creator, CreateName: d.CreatorName, TotalFileCount: len(fs.files[d.ID])})
		}
	}
	return mustJSON(out)
}

func getGroupRootFiles(f *Fake, p params) (json.RawMessage, *failure) {
	group, _, fail := p.integer("group_id", true, uintID)
	if fail != nil {
		return nil, fail
	}
	return f.listing(group, "/"), nil
}

// getGroupFilesByFolder reads folder_id or its alias folder, the first
// non-empty winning, and lists the root when both are empty or blank
// (normalizeDirectory).
func getGroupFilesByFolder(f *Fake, p params) (json.RawMessage, *failure) {
	group, _, fail := p.integer("group_id", true, uintID)
	if fail != nil {
		return nil, fail
	}
	folder := ""
	for _, name := range []string{"folder_id", "folder"} {
		s, _, fail := p.str(name)
		if fail != nil {
			return nil, fail
		}
		if folder == "" {
			folder = s
		}
	}
	if strings.TrimSpace(folder) == "" {
		folder = "/"
	}
	return f.listing(group, folder), nil
}
