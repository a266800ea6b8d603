/* SPDX-License-Identifier: MIT */
/*
 * cloakfs-fsck output: one line per finding (or one JSON object) and the
 * summary with counts by class (the progress line is fsck-progress.c's).
 * See fsck.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/fsck-progress.h"
#include "tools/fsck-repair.h"
#include "tools/fsck-report.h"

static const struct {
	const char *name;
	enum fsck_severity severity;
} classes[FC_COUNT] = {
	[FC_CONFIG_SYNTAX] = { "config-syntax", FSCK_ERROR },
	[FC_CONFIG_VERSION] = { "config-version", FSCK_ERROR },
	[FC_CONFIG_FEATURE] = { "config-feature", FSCK_ERROR },
	[FC_CONFIG_FIELD] = { "config-field", FSCK_ERROR },
	[FC_CONFIG_TEMP] = { "config-temp", FSCK_WARNING },
	[FC_CONFIG_OTHER_VOLUME] = { "config-other-volume", FSCK_ERROR },
	[FC_VOLUME_RECORD] = { "volume-record", FSCK_WARNING },
	[FC_KEYSLOT_UNOPENED] = { "keyslot-unopened", FSCK_WARNING },
	[FC_KEY_ID_MISMATCH] = { "key-id-mismatch", FSCK_ERROR },
	[FC_DIRNONCE_MISSING] = { "dirnonce-missing", FSCK_ERROR },
	[FC_DIRNONCE_BAD] = { "dirnonce-bad", FSCK_ERROR },
	[FC_DIRNONCE_DIFFER] = { "dirnonce-differ", FSCK_ERROR },
	[FC_DIRNONCE_COPY_MISSING] = { "dirnonce-copy-missing", FSCK_WARNING },
	[FC_DIRNONCE_COPY_BAD] = { "dirnonce-copy-bad", FSCK_WARNING },
	[FC_NAME_UNDECODABLE] = { "name-undecodable", FSCK_ERROR },
	[FC_NAME_INVALID] = { "name-invalid", FSCK_ERROR },
	[FC_NAME_OVERPADDED] = { "name-overpadded", FSCK_ERROR },
	[FC_NAME_DUPLICATE] = { "name-duplicate", FSCK_ERROR },
	[FC_NAME_WRONG_FORM] = { "name-wrong-form", FSCK_ERROR },
	[FC_SIDECAR_MISSING] = { "sidecar-missing", FSCK_ERROR },
	[FC_SIDECAR_ORPHAN] = { "sidecar-orphan", FSCK_ERROR },
	[FC_SIDECAR_MISMATCH] = { "sidecar-mismatch", FSCK_ERROR },
	[FC_FOREIGN_ENTRY] = { "foreign-entry", FSCK_ERROR },
	[FC_TEMP_ENTRY] = { "temp-entry", FSCK_ERROR },
	[FC_SYNC_CONFLICT] = { "sync-conflict", FSCK_WARNING },
	[FC_HEADER_TRUNCATED] = { "header-truncated", FSCK_ERROR },
	[FC_CONTENT_TRUNCATED] = { "content-truncated", FSCK_ERROR },
	[FC_HEADER_MAGIC] = { "header-magic", FSCK_ERROR },
	[FC_HEADER_VERSION] = { "header-version", FSCK_ERROR },
	[FC_HEADER_DAMAGED] = { "header-damaged", FSCK_ERROR },
	[FC_NONCE_ZERO] = { "nonce-zero", FSCK_ERROR },
	[FC_NONCE_REUSE] = { "nonce-reuse", FSCK_ERROR },
	[FC_CONTENT_UNREADABLE] = { "content-unreadable", FSCK_ERROR },
	[FC_SYMLINK_UNDECODABLE] = { "symlink-undecodable", FSCK_ERROR },
	[FC_SYMLINK_TARGET_MISSING] = { "symlink-target-missing", FSCK_ERROR },
	[FC_SYMLINK_TARGET_DAMAGED] = { "symlink-target-damaged", FSCK_ERROR },
	[FC_TARGET_ORPHAN] = { "target-orphan", FSCK_WARNING },
	[FC_TARGET_FOREIGN] = { "target-foreign", FSCK_ERROR },
	[FC_XATTR_DAMAGED] = { "xattr-damaged", FSCK_ERROR },
	[FC_XATTR_FOREIGN] = { "xattr-foreign", FSCK_WARNING },
	[FC_SPECIAL_FILE] = { "special-file", FSCK_WARNING },
	[FC_UNEXPECTED_TYPE] = { "unexpected-type", FSCK_ERROR },
	[FC_UNREADABLE] = { "unreadable", FSCK_ERROR },
};

static const char *const severity_names[] = { "error", "warning", "quarantined" };

const char *fsck_class_name(enum fsck_class c)
{
	return c < FC_COUNT ? classes[c].name : "?";
}

/* ---- text and JSON ----------------------------------------------------- */

/* JSON string: bytes that are not valid UTF-8 become \u00XX (latin-1) */
static void json_string(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (!s) {
		fputs("null", out);
		return;
	}
	fputc('"', out);
	while (*p) {
		unsigned char c = *p;
		size_t n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2
			 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
		size_t i;

		for (i = 1; i < n && (p[i] & 0xc0) == 0x80; i++)
			;
		if (n > 1 && i == n && c >= 0xc2) {
			fwrite(p, 1, n, out);
			p += n;
			continue;
		}
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
		p++;
	}
	fputc('"', out);
}

/* text output: control bytes in names shown as \xNN */
static void text_string(FILE *out, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p == 0x7f || *p == '\\')
			fprintf(out, "\\x%02x", *p);
		else
			fputc(*p, out);
	}
}

static const char *action_word(enum fsck_action a)
{
	switch (a) {
	case FA_FIXED: return "fixed";
	case FA_QUARANTINED: return "quarantined";
	case FA_REMOVED: return "removed";
	case FA_FAILED: return "repair failed";
	default: return NULL;
	}
}

/* one finding as text, without the newline */
static void text_line(FILE *out, enum fsck_severity sev, enum fsck_class c,
		      const char *path, const char *cpath, const char *detail,
		      enum fsck_action action, const char *action_detail)
{
	fprintf(out, "%s %s: ", severity_names[sev], classes[c].name);
	if (path) {
		text_string(out, path);
		if (cpath && *cpath) {
			fputs(" (ciphertext ", out);
			text_string(out, cpath);
			fputc(')', out);
		}
	} else {
		fputs("ciphertext ", out);
		text_string(out, cpath && *cpath ? cpath : ".");
	}
	if (*detail) {
		fputs(": ", out);
		text_string(out, detail);
	}
	if (action_word(action)) {
		fprintf(out, " [%s", action_word(action));
		if (action_detail && *action_detail) {
			fputs(": ", out);
			text_string(out, action_detail);
		}
		fputc(']', out);
	}
}

static void log_finding(struct fsck *f, enum fsck_severity sev,
			enum fsck_class c, const char *path, const char *cpath,
			const char *detail, enum fsck_action action,
			const char *action_detail)
{
	char *line = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&line, &len);

	if (!mem) {
		(void)fsck_log(f, "(out of memory)");
		return;
	}
	text_line(mem, sev, c, path, cpath, detail, action, action_detail);
	if (fclose(mem) == 0)
		(void)fsck_log(f, "%s", line);
	free(line);
}

void fsck_report(struct fsck *f, enum fsck_class c, bool in_lf,
		 const char *path, const char *cpath, enum fsck_action action,
		 const char *action_detail, const char *fmt, ...)
{
	enum fsck_severity sev = classes[c].severity;
	char detail[1024] = "";
	va_list ap;

	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(detail, sizeof(detail), fmt, ap);
		va_end(ap);
	}
	if (in_lf && sev == FSCK_ERROR)
		sev = FSCK_QUARANTINED;
	if (path && !*path)
		path = "/"; /* the root directory itself */
	f->by_class[c]++;
	switch (sev) {
	case FSCK_ERROR:
		f->errors++;
		if (action == FA_FIXED || action == FA_QUARANTINED ||
		    action == FA_REMOVED)
			f->corrected++;
		else
			f->uncorrected++;
		break;
	case FSCK_WARNING:
		f->warnings++;
		break;
	case FSCK_QUARANTINED:
		f->notes++;
		break;
	}
	fsck_progress_clear();
	/* what repair did, in the note; adding a missing copy of a nonce
	 * (every directory of an older volume) is not worth one */
	if (f->repair && action != FA_NONE && c != FC_DIRNONCE_COPY_MISSING)
		log_finding(f, sev, c, path, cpath, detail, action, action_detail);
	if (f->json) {
		fputs(f->json_first ? "\n    " : ",\n    ", stdout);
		f->json_first = false;
		fputs("{\"class\": ", stdout);
		json_string(stdout, classes[c].name);
		fprintf(stdout, ", \"severity\": \"%s\", \"path\": ",
			severity_names[sev]);
		json_string(stdout, path);
		fputs(", \"ciphertext\": ", stdout);
		json_string(stdout, cpath);
		fputs(", \"detail\": ", stdout);
		json_string(stdout, detail);
		fputs(", \"repair\": ", stdout);
		json_string(stdout, action_word(action));
		fputs(", \"repair_detail\": ", stdout);
		json_string(stdout, action_detail && *action_detail ? action_detail
								      : NULL);
		fputc('}', stdout);
		return;
	}
	text_line(stdout, sev, c, path, cpath, detail, action, action_detail);
	fputc('\n', stdout);
}

void fsck_fail(struct fsck *f, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fsck_progress_clear();
	fprintf(stderr, "%s: %s\n", FSCK_PROG, msg);
	f->operational_error = true;
}

void fsck_output_begin(struct fsck *f)
{
	f->json_first = true;
	if (!f->json)
		return;
	fputs("{\n  \"volume\": ", stdout);
	json_string(stdout, f->root[0] ? f->root : f->dir);
	printf(",\n  \"repair\": %s,\n  \"findings\": [", f->repair ? "true" : "false");
}

int fsck_output_end(struct fsck *f)
{
	int code = FSCK_EXIT_OK;
	bool any = false;

	if (f->corrected)
		code |= FSCK_EXIT_CORRECTED;
	if (f->uncorrected)
		code |= FSCK_EXIT_UNCORRECTED;
	if (f->operational_error)
		code |= FSCK_EXIT_OPERATIONAL;
	fsck_progress_clear();
	if (f->json) {
		printf("%s],\n  \"summary\": {\"errors\": %lu, \"corrected\": %lu, "
		       "\"uncorrected\": %lu, \"warnings\": %lu, \"quarantined\": %lu, "
		       "\"directories\": %lu, \"files\": %lu, \"symlinks\": %lu, "
		       "\"other\": %lu, \"operational_error\": %s, \"classes\": {",
		       f->json_first ? "" : "\n  ", f->errors, f->corrected,
		       f->uncorrected, f->warnings, f->notes, f->dirs, f->files,
		       f->symlinks, f->others,
		       f->operational_error ? "true" : "false");
		for (int c = 0; c < FC_COUNT; c++) {
			if (!f->by_class[c])
				continue;
			printf("%s\"%s\": %lu", any ? ", " : "", classes[c].name,
			       f->by_class[c]);
			any = true;
		}
		printf("}},\n  \"exit\": %d\n}\n", code);
		fflush(stdout);
		return code;
	}
	printf("%s: %lu directories, %lu files, %lu symlinks, %lu other; "
	       "%lu errors (%lu corrected, %lu uncorrected), %lu warnings, "
	       "%lu quarantined",
	       f->root[0] ? f->root : f->dir, f->dirs, f->files, f->symlinks,
	       f->others, f->errors, f->corrected, f->uncorrected, f->warnings,
	       f->notes);
	for (int c = 0; c < FC_COUNT; c++) {
		if (!f->by_class[c])
			continue;
		printf("%s%s %lu", any ? ", " : "; by class: ", classes[c].name,
		       f->by_class[c]);
		any = true;
	}
	printf("%s\n", f->operational_error ? "; check incomplete" : "");
	fflush(stdout);
	return code;
}
