// Package studytest holds what the study packages' tests share: reading
// a report link as the site reads it (OpenLink).
package studytest
