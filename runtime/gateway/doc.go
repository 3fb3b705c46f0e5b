// Package gateway serves a tool family through four tools instead of one
// tool per operation (spec 004): tool_help browses the op tree, tool_search
// finds ops by words, tool_exec runs one op, tool_batch runs several
// help/search/exec items in one call.
//
// Data flow: toolgen generates, per family, a Registry (ops such as
// "onto.task.list" mapped to the underlying tool "list_onto_tasks", with
// kind, usage, args, examples and policy) and the family's flat tools. The
// generated Gateway function calls New with both; a model then sees only the
// tools returned by Gateway.Tools. tool_exec resolves the op, applies the
// permission and argument checks, runs the tool's handler (which decodes and
// validates with the generated code) and wraps the outcome in an Envelope:
//
//	{"op":…,"ok":true,"result":…,"meta":{"trace_id":…,"latency_ms":…,"warnings":[]}}
//	{"op":…,"ok":false,"error":{"code":…,"message":…,"details":{"field_errors":[…]},"help_path":…}}
//
// tool_help and tool_search answer with the same envelope, without meta
// (Envelope says when help carries one).
//
// Handlers of ops with side effects read DryRun(ctx): tool_exec sets it from
// the call's dry_run argument, which defaults to true for ops whose registry
// entry has DryRunDefault.
//
// Every argument is hostile: Limits bound each input a model controls (size,
// nesting, key, op, path, query and idempotency key lengths) and what an
// envelope echoes back (field errors, texts, message), each answer costs
// time linear in the arguments, and invalid Unicode is rejected with its
// JSON pointer rather than replaced. Idempotency keys are per session and
// match on op, dry-run flag and canonical args; dry runs are not recorded.
//
// An earlier production gateway was abandoned because models misused it in
// predictable ways. This one answers each of them:
//
//   - tool_exec({}) or empty args: a VALIDATION_ERROR that names the op's
//     required args and carries a ready-to-run call (details.example).
//     Arguments spread next to "op" (with or without an args object), or
//     sent as a JSON string, are accepted with a warning instead of being
//     lost; one sent both ways with two values is a VALIDATION_ERROR, and
//     tool_exec's own fields (dry_run, idempotency_key) stay its own, which
//     the warning says. Member names are exact, as the generated decoders'
//     are: one that is a field only up to case ("OP", "Dry_Run") is a
//     VALIDATION_ERROR naming the field, never read both as it and as an
//     argument.
//   - Looping on root help: the root lists every group with its entities and
//     actions, a group lists every entity with op counts and actions (one
//     call covers a group, §8.2), small directories list their ops with
//     their args directly, and a repeated identical help call carries a
//     warning telling the model to pick an op. tool_help called with an
//     argument it does not take ({"op":…} for {"path":…}) or with a path
//     that does not exist answers with an error naming the argument to
//     send or the nearest paths, never with the root listing; tool_search
//     likewise refuses an argument it does not take ({"q":…}, a "group"
//     filter) instead of ignoring it, and tool_batch a member other than
//     items (a "dry_run" beside them). An argument an op's schema does
//     not declare but allows (no additionalProperties) is dropped by the
//     generated decoder; tool_exec warns that it was ignored, naming the
//     nearest argument.
//   - Omitted required *_id args: help always shows required args, and every
//     validation error lists them with an example; unknown args get the
//     nearest valid name (taskId → task_id).
//   - Repetition limits: the same failing call seen WithRepetitionThreshold
//     times (default 2) in a session no longer repeats the error verbatim; it
//     says the call keeps failing and points to tool_help for the op and to
//     tool_search.
//   - Help without examples: op help always has at least one ready-to-run
//     tool_exec example. Generated registries carry one per op (the
//     taxonomy synthesises it from the required args, with the argument
//     summaries and usage line); the gateway reads them and does not
//     re-derive them from the schema. A hand-written registry without one
//     shows an empty args object.
//   - Discovery beyond a path tree: tool_search ranks ops (Index) by op path,
//     tool name, argument names and description, with synonyms and stemming.
//
// What a model reads is kept to what it acts on. The boot descriptions
// are in the family's own words: tool_help's names the family's groups with
// their largest entities and takes its example paths from its largest
// entity, and tool_exec's example op is one of the family's. A tool_search
// answer lists each hit's op, its kind when it writes and its arguments (no
// echoed query, scores, tool names or fixed hints). Op help shows the op's
// description and each argument's in whole sentences (short help keeps
// the leading sentences up to 600 and 300 bytes), the usage line, the
// arguments with their own required flags, and examples as args for the
// op. Listings show each op once, with its kind when it writes and its
// arguments. toolgen search-eval --tokens counts boot + search answer +
// help answer per question.
//
// Search ranking (Index): BM25F (k1 1.6) over five fields of each op, each
// with its weight and a length normalisation b in [0,1]: names (op path,
// tool name, entity, action; weight 1, b 0.75), description (1, 1),
// argument names at any depth (0.5, 0.5), enum and const values (0.5, 0.5)
// and argument descriptions (0.5, 0.75). Words are split at
// snake/kebab/dot/camel/digit boundaries (text in Chinese, Japanese, Korean
// or Thai into overlapping pairs of characters), lowercased, stripped of
// stop words and numbers and stemmed by measure-based suffix rules after
// Porter, so inflections and derivations meet ("calculator", "calculation",
// "calculate"); a query word the family does not use whose two parts it
// uses alone ("airfare": air, fare) is searched as its parts and two query
// words it writes as one ("to-do": todo, "web site": website) also count as
// that word (both learned from the family's own words, not a word list);
// file and domain names in a query stand for "file" and "website"; the
// frame of a request ("help me", "tell me", "let me know", "thanks") is not
// searched for. Each query word scores the best of itself, its lexicon
// synonyms (×0.6) and indexed words sharing a prefix of five or more
// letters (×0.5); a word the query repeats n times weighs 1.5n/(0.5+n),
// Okapi's query-term saturation with k3 0.5 ("air quality … the air quality
// index" is about air quality). An op's sum is multiplied by 1 + half the
// share of the query's idf mass it matches (rare words count more), by ×1.1
// when the query's action verb (the first after a request cue such as "can
// you", "please" or "I want to", when it has one; else its first) is the
// op's or both only read, ×0.9 when they differ, by ×1.25 for a listing op
// whose entity the query names in the plural, and by ×1.2 for each kind of
// value the query holds (a date, a time of day, a URL, an email address, an
// amount of money, a language, a time zone, a year) that one of the op's
// arguments takes by its name ("date", "url", "amount", "language", "year",
// …): values are evidence of the arguments, and near-duplicate tools often
// differ in just those (values.go). The best 50 are then re-scored by the
// share of the query's adjacent word pairs found within three words in the
// op's name and description (×1), and by a Reranker when one is set
// (WithSearchReranker; EmbeddingReranker adapts an Embedder). Of ops that
// score the same (near-duplicate tools), the one whose name holds the
// larger share of its idf mass in the query goes first, then the smaller op
// path. The constants are chosen by 5-fold cross-validation over every
// query set (TestSearchCrossValidation): the in-repo pool with hand-written
// queries, that pool plus the shared corpus tool sets, ACEBench's 2,307
// tools with 825 questions, and synthetic sets of description-derived
// queries over both pools (TestSearchSets logs each set's recall against
// plain BM25). A set built from the Berkeley Function Calling Leaderboard's
// public data (golden/bench/cmd/bfcl-cases) checks the method on short
// questions over near-duplicate tools and is not used to choose constants.
// Building the index reads schemas by a scan of their JSON bytes, looks
// words up in a per-worker arena table and lays postings out in flat slices
// (docs/SEARCH.md).
//
// Writes are refused with PERMISSION_DENIED unless WithWrites(true); a dry
// run of a write op writes nothing and runs.
// Idempotency keys replay the first envelope of a call and turn a reused key
// with different args into CONFLICT. Help documents are cached by registry
// version, what the path names (its spellings share one), format and
// include flags.
package gateway
