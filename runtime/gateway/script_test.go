package gateway

import (
	"slices"
	"testing"
)

// TestUnspacedScripts: families and questions written in scripts without
// spaces between words (Chinese, Japanese, Thai) or with particles joined
// to their words (Korean), and in scripts with vowel signs (Hindi), are
// searched by the words they share.
func TestUnspacedScripts(t *testing.T) {
	ops := []Op{
		{Path: "weather.get", Tool: "get_weather", Description: "获取指定城市的天气预报"},
		{Path: "ticket.list", Tool: "get_tickets", Description: "查询公司的工单列表"},
		{Path: "forecast.get", Tool: "tenki", Description: "都市の天気予報を取得する"},
		{Path: "maid.find", Tool: "find_maid", Description: "ค้นหาแม่บ้านที่ให้บริการ"},
		{Path: "news.search", Tool: "search_news", Description: "최신 뉴스를 검색합니다"},
		{Path: "train.book", Tool: "book_train", Description: "रेलगाड़ी का टिकट बुक करें"},
		{Path: "food.order", Tool: "order_food", Description: "Order food from a restaurant"},
		// words that share their first letters with the questions' words
		// but not their marks or long vowels
		{Path: "mail.send", Tool: "send_mail", Description: "メールを送信する"},
		{Path: "list.get", Tool: "get_list", Description: "メモの一覧"},
		{Path: "maid.hire", Tool: "hire_maid", Description: "คนหาแม่น้ำ"},
	}
	ix := NewIndex(ops)
	cases := map[string]string{
		"北京后天的天气如何？":                  "get_weather",
		"获取阿迪达斯的工单":                   "get_tickets",
		"明日の天気予報を教えて":                 "tenki",
		"ช่วยหาคุณแม่บ้าน":            "find_maid",
		"박지성에 관한 뉴스 찾아줘":              "search_news",
		"メールを送って":                     "send_mail",
		"मुझे रेलगाड़ी का टिकट चाहिए": "book_train",
	}
	wantFirst(t, ix, cases)
}

func TestSplitWordsScripts(t *testing.T) {
	cases := map[string][]string{
		"天气预报":          {"天气", "气预", "预报"},
		"天气":            {"天气"},
		"LG ThinQ 에어컨을": {"lg", "thin", "q", "에어", "어컨", "컨을"},
		"mbox系统":        {"mbox", "系统"},
		"サーバー":          {"サー", "ーバ", "バー"},
		"ค้นหา":         {"ค้น", "นห", "หา"},
		"नमस्ते दुनिया": {"नमस्ते", "दुनिया"},
	}
	for in, want := range cases {
		if got := splitWords(in); !slices.Equal(got, want) {
			t.Errorf("splitWords(%q) = %q, want %q", in, got, want)
		}
	}
}
