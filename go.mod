module github.com/plangram/plangram

go 1.26.8

require (
	github.com/alecthomas/participle/v2 v2.1.4 // indirect
	github.com/alecthomas/repr v0.5.4 // indirect
	github.com/pmezard/go-difflib v1.0.0 // indirect
	github.com/sebdah/goldie/v2 v2.8.0 // indirect
	github.com/sergi/go-diff v1.0.0 // indirect
	github.com/yuin/goldmark v1.8.7 // indirect
)
