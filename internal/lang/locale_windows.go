package lang

import "golang.org/x/sys/windows"

// getUserDefaultUILanguage is kernel32's GetUserDefaultUILanguage: the
// LANGID of the language Windows shows this user its own text in.
var getUserDefaultUILanguage = windows.NewLazySystemDLL("kernel32.dll").NewProc("GetUserDefaultUILanguage")

// langChinese is LANG_CHINESE, the primary language of every Chinese
// LANGID (zh-CN, zh-TW, zh-HK, zh-SG, zh-MO).
const langChinese = 0x04

// system is the user's Windows UI language: a console sets no locale
// variable, so a Chinese Windows is known by this alone.
func system() Tag {
	if getUserDefaultUILanguage.Find() != nil {
		return English
	}
	id, _, _ := getUserDefaultUILanguage.Call()
	if id&0x3ff == langChinese {
		return Chinese
	}
	return English
}
