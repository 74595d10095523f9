#pragma once

#include "mcp/schema.h"

// The documented JSON objects (docs/json.md) as JSON Schemas: the outputSchema of each tool, which
// a client checks every structuredContent against. Each names the fields docs/json.md lists, with
// their types; nested objects described there (a verdict, a definition) are objects here.
namespace ej::mcp::objects {

using schema::Json;

// Every object ej prints carries "schema": 1.
Json git();             // where an attempt or run was made
Json next();            // a verdict's `next`: what would make it decisive
Json verdict();         // a verdict; of its fields, those an agent acts on are spelled out
Json attempt();         // ej log --json's element
Json attempt_history(); // attempt + status_history, notes, links
Json attempt_detail();  // ej show ID --json
Json run();             // ej runs --json's element
Json run_detail();      // ej show run N --json
Json bench();           // ej bench list --json's element
Json bench_show();      // ej bench show NAME --json
Json comparison();      // ej compare --json (either design)
Json interleaved();     // ej compare --json of two runs measured together; a run's `comparison`
Json judgement();       // ej judge --json
Json rendered();        // ej plan render --json
Json waited();          // ej wait --json's element

// A list under one name ({"schema": 1, "attempts": [...]}): a tool's result is an object.
Json listing(const char* name, Json element);

} // namespace ej::mcp::objects
