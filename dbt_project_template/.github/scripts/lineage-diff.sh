#!/usr/bin/env bash
# The steps of .github/workflows/dbt-lineage-diff.yml, one function each, so that they run
# (and are tested) outside GitHub Actions too:
#
#   lineage-diff.sh base       dbt artifacts of the base commit, in a git worktree
#   lineage-diff.sh download   or: the base manifest downloaded (production's)
#   lineage-diff.sh head       dbt artifacts of the checked-out commit
#   lineage-diff.sh diff       dbt-lineage diff: the comment (Markdown), HTML and JSON
#   lineage-diff.sh comment    create or update the one sticky comment on the pull request
#   lineage-diff.sh gate       exit 1 when the verdict matches LINEAGE_FAIL_ON
#
# Settings (environment):
#   LINEAGE_OUT            where everything is written (default: $RUNNER_TEMP/dbt-lineage-diff,
#                          or .dbt-lineage-diff); base/ and head/ are the two target dirs
#   LINEAGE_PROJECT_DIR    the dbt project, relative to the repository root (default: .)
#   LINEAGE_BASE_SHA       base commit (`base`; the workflow passes the pull request's base)
#   LINEAGE_BASE_MANIFEST_URL  URL of the base manifest.json (`download`)
#   LINEAGE_DOWNLOAD_HEADER    extra curl header for that URL, e.g. "Authorization: Bearer ..."
#   LINEAGE_DBT_COMMAND    dbt command that writes the manifest (default: compile)
#   LINEAGE_CATALOG        true (default): also `dbt docs generate` for catalog.json (needs
#                          the warehouse); false: the manifest only
#   LINEAGE_FAIL_ON        block (default), review or unknown; empty: never fail
#   LINEAGE_REPORT_URL     link printed under the comment (the workflow run with the HTML)
#   GITHUB_REPOSITORY, LINEAGE_PR_NUMBER   where the comment goes (`comment`)
#   DBT, DBT_LINEAGE, GH   the executables (default: dbt, dbt-lineage, gh)
set -euo pipefail

MARKER="<!-- dbt-lineage-diff -->"
# GitHub refuses comments over 65,536 characters; dbt-lineage keeps its Markdown within 60,000.
COMMENT_LIMIT=65000

ROOT="$(git rev-parse --show-toplevel)"
if [ -n "${LINEAGE_OUT:-}" ]; then
    OUT="$LINEAGE_OUT"
elif [ -n "${RUNNER_TEMP:-}" ]; then
    OUT="$RUNNER_TEMP/dbt-lineage-diff"
else
    OUT="$ROOT/.dbt-lineage-diff"
fi
PROJECT_DIR="${LINEAGE_PROJECT_DIR:-.}"
DBT="${DBT:-dbt}"
DBT_LINEAGE="${DBT_LINEAGE:-dbt-lineage}"
GH="${GH:-gh}"

fail() {
    echo "Error: $*" >&2
    exit 1
}

# --base for dbt-lineage: the base target dir, or its manifest.json when that is all there is.
base_arg() {
    if [ "$(ls "$OUT/base")" = manifest.json ]; then echo "$OUT/base/manifest.json"; else echo "$OUT/base"; fi
}

# Runs dbt in the project at $1, writing its artifacts to $2 (an absolute path).
dbt_artifacts() {
    local project="$1" target="$2"
    [ -f "$project/dbt_project.yml" ] || fail "no dbt_project.yml in $project: set LINEAGE_PROJECT_DIR"
    rm -rf "$target"
    (
        cd "$project"
        if [ -f packages.yml ] || [ -f dependencies.yml ]; then "$DBT" deps; fi
        # shellcheck disable=SC2086  # the command may be two words (e.g. "build --empty")
        "$DBT" ${LINEAGE_DBT_COMMAND:-compile} --target-path "$target"
        if [ "${LINEAGE_CATALOG:-true}" = true ]; then
            "$DBT" docs generate --target-path "$target"
        fi
    )
    [ -f "$target/manifest.json" ] || fail "dbt wrote no manifest.json in $target"
}

# The base commit's artifacts: a detached worktree of LINEAGE_BASE_SHA, built like the head.
step_base() {
    local sha="${LINEAGE_BASE_SHA:?set LINEAGE_BASE_SHA to the base commit}"
    if ! git -C "$ROOT" cat-file -e "$sha^{commit}" 2>/dev/null; then
        git -C "$ROOT" fetch --no-tags --depth=1 origin "$sha"
    fi
    mkdir -p "$OUT"
    local src="$OUT/base-src"
    git -C "$ROOT" worktree remove --force "$src" 2>/dev/null || rm -rf "$src"
    git -C "$ROOT" worktree add --detach "$src" "$sha" >/dev/null
    dbt_artifacts "$src/$PROJECT_DIR" "$OUT/base"
    git -C "$ROOT" worktree remove --force "$src"
}

# Or the base manifest alone, downloaded (e.g. the one production's last run published).
step_download() {
    local url="${LINEAGE_BASE_MANIFEST_URL:?set LINEAGE_BASE_MANIFEST_URL to the base manifest.json}"
    local header=()
    [ -z "${LINEAGE_DOWNLOAD_HEADER:-}" ] || header=(--header "$LINEAGE_DOWNLOAD_HEADER")
    rm -rf "$OUT/base"
    mkdir -p "$OUT/base"
    curl --fail --silent --show-error --location "${header[@]}" \
        --output "$OUT/base/manifest.json" "$url" \
        || fail "could not download the base manifest from $url"
}

# The checked-out commit's artifacts.
step_head() {
    dbt_artifacts "$ROOT/$PROJECT_DIR" "$OUT/head"
}

# The report in three formats: comment.md (with the marker), diff.html, diff.json. A failing
# diff still leaves a comment that says why.
step_diff() {
    local base status=0
    base="$(base_arg)"
    for format in markdown html json; do
        "$DBT_LINEAGE" diff --base "$base" --head "$OUT/head" --format "$format" \
            --output "$OUT/diff.${format/markdown/md}" 2>"$OUT/diff.err" || { status=$?; break; }
    done
    {
        echo "$MARKER"
        if [ "$status" = 0 ]; then
            cat "$OUT/diff.md"
            [ -z "${LINEAGE_REPORT_URL:-}" ] \
                || printf '\n\n---\nFull report: the `dbt-lineage-diff` artifact of [this run](%s).\n' \
                    "$LINEAGE_REPORT_URL"
        else
            printf '## dbt-lineage diff failed\n\n```\n%s\n```\n' "$(tail -n 20 "$OUT/diff.err")"
        fi
    } >"$OUT/comment.md"
    cat "$OUT/diff.err" >&2
    return "$status"
}

# Finds the comment that carries the marker and updates it, or posts a new one.
step_comment() {
    local repo="${GITHUB_REPOSITORY:?set GITHUB_REPOSITORY (owner/name)}"
    local pr="${LINEAGE_PR_NUMBER:?set LINEAGE_PR_NUMBER to the pull request number}"
    local body="$OUT/comment.md"
    [ -f "$body" ] || fail "no $body: run the diff step first"
    if [ "$(wc -m <"$body")" -gt "$COMMENT_LIMIT" ]; then
        head -c "$COMMENT_LIMIT" "$body" >"$body.cut"
        printf '\n\n(cut to fit a GitHub comment: see the HTML report)\n' >>"$body.cut"
        mv "$body.cut" "$body"
    fi
    local id
    id="$("$GH" api --paginate "repos/$repo/issues/$pr/comments" \
        | jq -r --arg marker "$MARKER" '.[] | select(.body | contains($marker)) | .id' \
        | head -n 1)"
    if [ -n "$id" ]; then
        jq -n --rawfile body "$body" '{body: $body}' \
            | "$GH" api --method PATCH "repos/$repo/issues/comments/$id" --input - >/dev/null
        echo "Updated comment $id on pull request #$pr"
    else
        jq -n --rawfile body "$body" '{body: $body}' \
            | "$GH" api --method POST "repos/$repo/issues/$pr/comments" --input - >/dev/null
        echo "Commented on pull request #$pr"
    fi
}

# The CI gate: dbt-lineage's own --fail-on decides; the text report goes to the log.
step_gate() {
    local base
    base="$(base_arg)"
    if [ -z "${LINEAGE_FAIL_ON-block}" ]; then
        "$DBT_LINEAGE" diff --base "$base" --head "$OUT/head" --format text
    else
        "$DBT_LINEAGE" diff --base "$base" --head "$OUT/head" --format text \
            --fail-on "${LINEAGE_FAIL_ON:-block}"
    fi
}

case "${1:-}" in
    base | download | head | diff | comment | gate) "step_$1" ;;
    *) fail "usage: $0 base|download|head|diff|comment|gate" ;;
esac
