"""Each DESC rule: cases that must fire and near misses that must not."""

from __future__ import annotations

import json
from typing import Any

import pytest

from catalint.config import Settings
from catalint.engine import lint_catalog
from catalint.loader import load_text
from catalint.model import Finding, Tool
from catalint.tdqs import score

GOOD_DESC = "Get the current weather for a city. Returns temperature and conditions as JSON."
ANN = {"readOnlyHint": True}


def tool(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "name": "get_weather",
        "description": GOOD_DESC,
        "inputSchema": {"type": "object", "properties": {}},
        "annotations": ANN,
    }
    base.update(fields)
    return {k: v for k, v in base.items() if v is not ...}


def schema(props: dict[str, Any], required: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "object", "properties": props, **extra}
    if required is not None:
        out["required"] = required
    return out


def run(code: str, *tools: dict[str, Any]) -> list[Finding]:
    catalog = load_text(json.dumps({"tools": list(tools)}, indent=2), "t.json", "t.json")
    return lint_catalog(catalog, Settings(select=[code])).findings


def fires(code: str, t: dict[str, Any]) -> bool:
    return bool(run(code, t))


# ---------------------------------------------------------------- DESC-001


@pytest.mark.parametrize(
    "desc",
    [..., None, "", "   ", "Weather", "Get the weather.", 42],
)
def test_desc001_fires_on_missing_empty_short_or_non_string(desc: Any) -> None:
    findings = run("DESC-001", tool(description=desc))
    assert [f.code for f in findings] == ["DESC-001"]
    assert findings[0].pointer == "/tools/0/description"


def test_desc001_near_miss_exactly_twenty_chars() -> None:
    assert not fires("DESC-001", tool(description="Get weather for city"))  # 20 chars
    assert fires("DESC-001", tool(description="Get weather for cit"))  # 19 chars


def test_desc001_a_wide_cjk_character_counts_as_three() -> None:
    assert not fires("DESC-001", tool(description="查询12306余票信息。"))  # 12 characters, 32 by weight
    assert not fires("DESC-001", tool(description="根据农历时间、性别来获取八字信息。"))
    [finding] = run("DESC-001", tool(description="获取所有菜谱"))  # "get all recipes": short in any script
    assert finding.message == (
        "description is 6 characters (18 counting a wide CJK character as 3), under 20: '获取所有菜谱'"
    )
    assert fires("DESC-001", tool(description="Ĝet wéather"))  # accented Latin is not wide


def test_desc001_a_cjk_description_of_weight_exactly_twenty_passes() -> None:
    assert not fires("DESC-001", tool(description="查询天气 in city"))  # 4 wide characters (12) and 8 more
    assert fires("DESC-001", tool(description="查询天气 in cit"))  # 19


def test_desc001_an_emoji_is_no_word() -> None:
    # emoji are wide too, but carry no description: four rockets do not make 'Get stuff' long enough
    (f,) = run("DESC-001", tool(description="🚀🚀🚀🚀 Get stuff"))
    assert f.message == "description is 14 characters, under 20: '🚀🚀🚀🚀 Get stuff'"


def test_desc001_trims_whitespace_before_counting() -> None:
    assert fires("DESC-001", tool(description="   Get the weather      "))


# ---------------------------------------------------------------- DESC-002


def test_desc002_fires_over_500() -> None:
    assert fires("DESC-002", tool(description="Get the weather. " + "x" * 500))


def test_desc002_says_when_a_docstrings_indentation_is_much_of_the_length() -> None:
    lines = ["List all active terminal sessions and return their status."] + ["- one detail of the status."] * 20
    [f] = run("DESC-002", tool(description="\n                        ".join(lines)))
    assert f.message.endswith(f"({20 * 24} of them the indentation of its lines: dedent it)")
    [g] = run("DESC-002", tool(description="\n  ".join(lines)))  # 40 of 658 characters: not worth a word
    assert g.message == "description is 658 characters, over 500"


def test_desc002_near_miss_exactly_500() -> None:
    text = ("Get the weather. " * 40)[:500]
    assert len(text.strip()) == 500 or not fires("DESC-002", tool(description=text))
    assert not fires("DESC-002", tool(description=text))


# ---------------------------------------------------------------- DESC-003


@pytest.mark.parametrize(
    ("name", "desc"),
    [
        ("lookup_city_weather", "Lookup city weather"),
        ("lookup_city_weather", "lookup-city.weather."),
        ("getWeather", "Get weather"),
        ("list_starred_repositories", "List starred repositories"),
    ],
)
def test_desc003_fires_when_description_is_the_name(name: str, desc: str) -> None:
    assert fires("DESC-003", tool(name=name, description=desc))


def test_desc003_near_miss_one_more_word() -> None:
    assert not fires("DESC-003", tool(name="lookup_city_weather", description="Lookup city weather now"))


def test_desc003_silent_on_empty_description() -> None:
    assert not fires("DESC-003", tool(name="x", description=""))


@pytest.mark.parametrize(
    ("name", "desc"),
    [
        ("天气", "查询城市的天气预报"),  # "query a city's weather forecast": letters beyond ASCII count
        ("検索", "ウェブを検索します"),
        ("天气", "🌤️ ☀️"),  # no letter at all is not the name either
    ],
)
def test_desc003_a_description_in_another_script_is_not_the_name(name: str, desc: str) -> None:
    assert not fires("DESC-003", tool(name=name, description=desc))


@pytest.mark.parametrize(("name", "desc"), [("天气", "天气。"), ("検索", "検索"), ("météo", "Météo!")])
def test_desc003_fires_on_the_name_in_another_script(name: str, desc: str) -> None:
    assert fires("DESC-003", tool(name=name, description=desc))


# ---------------------------------------------------------------- DESC-004


@pytest.mark.parametrize(
    "desc",
    ["Weather data for cities worldwide.", "Enhanced server statistics", "Max 30 days of historical data."],
)
def test_desc004_fires_without_a_verb(desc: str) -> None:
    assert fires("DESC-004", tool(description=desc))


@pytest.mark.parametrize(
    "desc",
    [
        "Gets weather data for cities.",
        "Lists open issues",
        "Unstar a GitHub repository",
        "Press a key on the keyboard",
        "Subtracts the second number from the first number",
        "Looksup whois information about the IP",
        "Copied rows are appended to the sheet",
        "Link an existing issue to an epic.",  # mcp-atlassian
        "Transition a Jira issue to a new status.",  # mcp-atlassian
        "Acknowledges the incident.",
        # from the live servers (DigitalOcean, Datadog, Hostinger, Backlog, mobile-mcp, Google Drive):
        "Reboot a droplet",
        "Rebuild a droplet from an image",
        "Shutdown a droplet",
        "Power off a droplet",
        "Unmute a host in Datadog",
        "Resend the confirmation email",
        "Relates an issue to another issue",
        "Swipe on the screen",
        "Tap at the given coordinates",
        "Protect a range in a spreadsheet",
        "Style shapes in Google Slides",
        "Unconfirm a SonarQube issue",
        # verbs the list lacked, and British spellings of listed ones
        "Geolocates an IP address to a country and city.",
        "Tokenizes text into model tokens.",
        "Deduplicates rows of a CSV file by key columns.",
        "Rasterizes an SVG file into a PNG image.",
        "Normalises a UK postcode to its canonical spacing.",
        "Visualises a time series as a sparkline image.",
        "Summarising tool for long documents.",
        "Declines a meeting invitation on behalf of the user.",
        "Reschedules a meeting to a new time slot.",
        "Retries a failed webhook delivery with the original payload.",
        "Provisions a new serverless Postgres database in the chosen region.",
        "Escalates an incident to the secondary responder.",
        "Invalidates cached paths in a CloudFront distribution.",
        "Suspends a Google Workspace user account.",
        "Unarchives a Slack channel.",
    ],
)
def test_desc004_near_miss_inflected_verbs(desc: str) -> None:
    assert not fires("DESC-004", tool(description=desc))


def test_desc004_skips_non_latin_descriptions() -> None:
    assert not fires("DESC-004", tool(description="获取当前日期，以上海时区为准，返回格式为 yyyy-MM-dd。"))


@pytest.mark.parametrize(
    "desc",
    [  # Chinese prose around an English tag or identifiers is still Chinese (Yunxiao, CloudBase)
        "[application delivery] 创建部署单",
        "[Project Management] 获取实际工时明细",
        "CloudBase Agent 域统一写入口。支持创建、更新和删除远端 Agent。",
        "标准返回字段为 EnvId、Alias、Status",
    ],
)
def test_desc004_and_desc010_skip_cjk_prose_with_english_tags_and_identifiers(desc: str) -> None:
    assert not fires("DESC-004", tool(description=desc))
    assert not fires("DESC-010", tool(description=desc))


def test_desc004_still_judges_english_with_a_cjk_name_in_it() -> None:
    assert fires("DESC-004", tool(description="Weather for 北京, 上海 and 广州 in one table."))


@pytest.mark.parametrize(
    "desc",
    [
        "Ruft das aktuelle Wetter für eine Stadt ab.",
        "Obtiene el clima actual de una ciudad.",
        "Récupère la météo actuelle pour une ville.",
    ],
)
def test_desc004_and_desc010_skip_other_languages_in_latin_letters(desc: str) -> None:
    assert not fires("DESC-004", tool(description=desc))
    assert not fires("DESC-010", tool(description=desc + " Test."))  # "test" is an English verb form


@pytest.mark.parametrize(
    "desc",
    [
        "Weather data de la base for cities of the world.",  # a phrase of French in English
        "Promises and exercises for the course.",  # -ise words that are no -ize verb
        "Analysis of server statistics.",
    ],
)
def test_desc004_still_judges_english_with_foreign_words_or_ise_nouns(desc: str) -> None:
    assert fires("DESC-004", tool(description=desc))


# ---------------------------------------------------------------- DESC-005


@pytest.mark.parametrize(
    "desc",
    [
        "Same as the previous tool, but for folders.",
        "See above for the list of supported formats.",
        "Deletes a folder. As mentioned before, this cannot be undone.",
        "Call the next tool with the returned id.",
        "Run the previous tools first.",
        "Search files. Options are described below.",
        "Returns an id. Pass it to the following tool.",  # nothing follows it here
        "Look up the summoner first, and call the next functions.",
        "Look up the summoner first, and then call the next tool.",  # a tool is a place, then or not
        "Look up the summoner first, then call the previous function.",
        "Call the next function, then call the next function again.",
        "Same as the previous command, but recursive.",
        "Use the last function to save the result.",
        "Uses the settings defined above.",
        "Options are explained below.",
        "Options are given below.",
        "Options are detailed below.",
        "Call the preceding function first.",
        "Use the tool above to get an id first.",
        "Call the function below with the id it returns.",
        "Uses the above-mentioned credentials to open a session.",
        "Fills the below-listed fields.",
        "Same as the above, but for folders.",
    ],
)
def test_desc005_fires_on_positional_phrases(desc: str) -> None:
    assert fires("DESC-005", tool(description=desc))


@pytest.mark.parametrize(
    "desc",
    [
        "Return temperatures below zero for the given city.",
        "Use this when information is missing to build other tool calls.",
        "Convert a file. Supported formats are listed below:\n- csv: comma separated values\n"
        "- json: one object per row\n- xml: one element per row",
        "Search the index for documents that match the query, ranking by relevance and recency. "
        "As described above, results are paged.",
        # Earlier calls in the conversation, not a place in the list (mui-mcp's fetchDocs):
        "Fetch documentation for one or more URLs extracted from previous tool calls responses.",
        "Pass the cursor from the last tool result to get the next page.",
        "Summarise the previous tool response for the user. Returns text.",
        # the next step a result recommends (mfa-servicenow-mcp's sn_resolve_url)
        "Parse a ServiceNow URL into table, sys_id, scope and the suggested next tool. Read-only.",
        # a command or function of the tool's domain, not a tool of the catalog
        "Re-run the last command in the current terminal session.",
        # the next step in time, not the next place in the list (opgg's lol-summoner-renewal)
        "Renew the summoner's data. You must always call this function first, and then call the next functions.",
        "Save the draft, then invoke the next command to publish it.",
        "Return the previous command's exit status.",
        "Roll back an AWS Lambda alias to the previous function version.",
        "Step over to the next function in the call stack.",
        "List the last commands executed in the shell history.",
        # "above" or "below" as a comparison or in a compound (probe, round 6)
        "Lists functions below a coverage threshold in the latest report.",
        "Finds functions above a cyclomatic complexity threshold in a project.",
        "Finds products listed below a given price in a category.",
        "Returns the METAR. Cloud bases are given above ground level, in feet.",
        "Estimates the above-ground biomass of a forest plot.",
        "Captures the below-the-fold part of a page as a PNG image.",
        # a machine's cutting tool, a tool's version
        "Pre-stages the next tool in the magazine so that the tool change is faster.",
        "Returns the last tool used on the spindle, with its wear offset.",
        "Switches the project back to the previous tool version in .tool-versions.",
        # A command shown in the description itself (Neon's provision_neon_auth):
        "Provision auth. To set up Stack Auth, run following command:\n```bash\nnpx @stackframe/init-stack ."
        " --no-browser\n```\nThis command will set up the project with the keys it needs.",
    ],
)
def test_desc005_near_misses(desc: str) -> None:
    assert not fires("DESC-005", tool(description=desc))


LEAD79 = "Delete a folder and everything in it, including hidden files, links and caches."
LIST80 = ":\n- csv: values separated by commas, one row per line\n- json: one object per row"
LIST79 = ":\n- csv: comma separated values, one row a line\n- json: one JSON object per row"


def test_desc005_see_above_needs_eighty_characters_before_it() -> None:
    assert (len(LEAD79), len(LEAD79[:-2] + ".")) == (79, 78)
    assert not fires("DESC-005", tool(description=LEAD79 + " See above."))  # 'See' at character 80
    assert fires("DESC-005", tool(description=LEAD79[:-2] + ". See above."))  # at 79


def test_desc005_listed_below_needs_eighty_characters_after_it() -> None:
    assert (len(LIST80), len(LIST79)) == (80, 79)
    assert not fires("DESC-005", tool(description="Convert a file. Options are listed below" + LIST80))
    assert fires("DESC-005", tool(description="Convert a file. Options are listed below" + LIST79))


# ---------------------------------------------------------------- DESC-006


def test_desc006_fires_on_required_argument_without_description() -> None:
    t = tool(inputSchema=schema({"city": {"type": "string"}}, ["city"]))
    findings = run("DESC-006", t)
    assert len(findings) == 1
    assert findings[0].pointer == "/tools/0/inputSchema/properties/city"
    assert "'city'" in findings[0].message


def test_desc006_near_misses_optional_or_documented() -> None:
    optional = tool(inputSchema=schema({"city": {"type": "string"}}))
    documented = tool(inputSchema=schema({"city": {"type": "string", "description": "City name"}}, ["city"]))
    blank = tool(inputSchema=schema({"city": {"type": "string", "description": "  "}}, ["city"]))
    assert not fires("DESC-006", optional)
    assert not fires("DESC-006", documented)
    assert fires("DESC-006", blank)


def test_desc006_nested_object_and_array_items() -> None:
    nested = schema(
        {
            "filter": {
                "type": "object",
                "description": "Filter",
                "properties": {"status": {"type": "string"}},
                "required": ["status"],
            },
            "rows": {
                "type": "array",
                "description": "Rows",
                "items": {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]},
            },
        }
    )
    names = sorted(f.message for f in run("DESC-006", tool(inputSchema=nested)))
    assert names == [
        "required argument 'filter.status' has no description",
        "required argument 'rows[].id' has no description",
    ]


def test_desc006_follows_local_ref_for_description() -> None:
    s = schema(
        {"item": {"$ref": "#/$defs/Item"}},
        ["item"],
        **{"$defs": {"Item": {"type": "object", "description": "An item"}}},
    )
    assert not fires("DESC-006", tool(inputSchema=s))
    s["$defs"]["Item"].pop("description")
    assert fires("DESC-006", tool(inputSchema=s))


@pytest.mark.parametrize(
    "written",
    [
        {"$ref": "#/$defs/Address"},
        {"allOf": [{"$ref": "#/$defs/Address"}]},  # Pydantic v1's described $ref
        {"anyOf": [{"$ref": "#/$defs/Address"}, {"type": "null"}]},  # Pydantic's Optional[Address]
        {"oneOf": [{"type": "null"}, {"$ref": "#/$defs/Address"}]},
    ],
)
def test_desc006_a_description_behind_a_ref_counts_however_the_ref_is_written(written: dict[str, Any]) -> None:
    address = {"type": "object", "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}
    described = {"Address": {**address, "description": "Postal address of the recipient."}}
    assert not fires("DESC-006", tool(inputSchema=schema({"address": written}, ["address"], **{"$defs": described})))
    bare = {"Address": address}
    [finding] = run("DESC-006", tool(inputSchema=schema({"address": written}, ["address"], **{"$defs": bare})))
    assert finding.message == "required argument 'address' has no description"


@pytest.mark.parametrize(
    "written",
    [
        {"$ref": "#/$defs/Address"},
        {"allOf": [{"$ref": "#/$defs/Address"}]},
        {"anyOf": [{"$ref": "#/$defs/Address"}, {"type": "null"}]},  # Pydantic's Optional[Address]
        {"oneOf": [{"type": "null"}, {"$ref": "#/$defs/Address"}]},
    ],
)
def test_desc006_a_model_whose_fields_describe_themselves_needs_no_description(written: dict[str, Any]) -> None:
    fields = {"street": {"type": "string", "description": "Street and number."}}
    fields["city"] = {"type": "string", "description": "City name."}
    defs = {"Address": {"type": "object", "properties": fields}}
    t = tool(inputSchema=schema({"address": written}, ["address"], **{"$defs": defs}))
    assert not fires("DESC-006", t)
    parts = {p.key: p.value for p in score(Tool(0, "/tools/0", t)).parts}
    assert parts["parameters"] == 1.0  # TDQS reads it the same way
    fields["city"] = {"type": "string"}  # one field bare: the model needs its own description
    assert fires("DESC-006", tool(inputSchema=schema({"address": written}, ["address"], **{"$defs": defs})))


def test_desc006_an_allof_ref_points_at_the_definitions_description() -> None:
    s = schema(
        {"item": {"allOf": [{"$ref": "#/$defs/Item"}]}},
        ["item"],
        **{"$defs": {"Item": {"enum": ["a", "b"], "description": "An item"}}},
    )
    [finding] = run("DESC-007", tool(inputSchema=s))  # the enum behind the allOf is the argument's, as for a $ref
    assert finding.pointer == "/tools/0/inputSchema/$defs/Item/description"


def test_desc006_survives_ref_cycles() -> None:
    s = schema(
        {"node": {"$ref": "#/$defs/Node"}},
        ["node"],
        **{
            "$defs": {
                "Node": {
                    "type": "object",
                    "description": "A tree node",
                    "properties": {"child": {"$ref": "#/$defs/Node"}},
                    "required": ["child"],
                }
            }
        },
    )
    assert not fires("DESC-006", tool(inputSchema=s))


@pytest.mark.parametrize(
    "description",
    [
        "Search the web.\n\n    Args:\n        query: The search text\n",
        "Compute eGFR.\n    Parameters\n    ----------\n    query : str\n        The search text\n",
        "Search the web.\n- `query` (str): the search text",
    ],
)
def test_desc006_says_when_a_parameter_list_in_the_tool_description_covers_it(description: str) -> None:
    [finding] = run(
        "DESC-006", tool(description=description, inputSchema=schema({"query": {"type": "string"}}, ["query"]))
    )
    assert finding.message.endswith("(the tool description's parameter list covers it: move that text into the schema)")


def test_desc006_a_mere_mention_is_no_parameter_list() -> None:
    t = tool(
        description="Search the web for the query given.", inputSchema=schema({"query": {"type": "string"}}, ["query"])
    )
    [finding] = run("DESC-006", t)
    assert finding.message == "required argument 'query' has no description"


@pytest.mark.parametrize("arg", [{"const": "workspace"}, {"type": "string", "enum": ["workspace"]}])
def test_desc006_a_fixed_value_needs_no_description(arg: dict[str, Any]) -> None:
    assert not fires("DESC-006", tool(inputSchema=schema({"type": arg}, ["type"])))


def test_desc006_a_two_value_enum_still_needs_one() -> None:
    assert fires("DESC-006", tool(inputSchema=schema({"type": {"enum": ["page", "database"]}}, ["type"])))


def test_desc006_a_description_on_a_branch_counts() -> None:
    described = {"anyOf": [{"type": "object", "description": "Property values of the page"}, {"type": "string"}]}
    findings = run("DESC-006", tool(inputSchema=schema({"props": described}, ["props"])))
    assert findings == []
    bare = {"anyOf": [{"type": "object"}, {"type": "string", "description": "  "}]}
    assert fires("DESC-006", tool(inputSchema=schema({"props": bare}, ["props"])))


def test_desc006_branch_description_is_where_other_rules_look() -> None:
    # The argument's description is the branch's: DESC-007 reads it (and points at it).
    arg = {"oneOf": [{"enum": ["asc", "desc"], "description": "Sort order"}, {"type": "null"}]}
    [finding] = run("DESC-007", tool(inputSchema=schema({"order": arg})))
    assert finding.pointer == "/tools/0/inputSchema/properties/order/oneOf/0/description"


# ---------------------------------------------------------------- DESC-007


def test_desc007_fires_when_no_enum_value_is_mentioned() -> None:
    s = schema({"unit": {"type": "string", "enum": ["c", "f"], "description": "Temperature unit"}})
    findings = run("DESC-007", tool(inputSchema=s))
    assert len(findings) == 1
    assert findings[0].pointer == "/tools/0/inputSchema/properties/unit/description"


def test_desc007_near_misses() -> None:
    mentioned = schema({"unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "description": "Celsius or F"}})
    snake = schema({"sort": {"enum": ["created_at", "name"], "description": "Sort by created at time"}})
    no_desc = schema({"unit": {"type": "string", "enum": ["c", "f"]}})
    huge = schema({"unit": {"enum": [f"u{i}" for i in range(20)], "description": "Source unit"}})
    for s in (mentioned, snake, no_desc, huge):
        assert not fires("DESC-007", tool(inputSchema=s)), s


def test_desc007_array_items_enum() -> None:
    s = schema({"tags": {"type": "array", "items": {"enum": ["red", "blue"]}, "description": "Colour tags"}})
    assert fires("DESC-007", tool(inputSchema=s))


def test_desc007_optional_enum_in_a_branch() -> None:
    optional = {"anyOf": [{"type": "string", "enum": ["light", "dark"]}, {"type": "null"}]}
    s = schema({"scheme": {**optional, "description": "Emulated colour scheme"}})
    assert fires("DESC-007", tool(inputSchema=s))
    s = schema({"scheme": {**optional, "description": "Colour scheme: light or dark"}})
    assert not fires("DESC-007", tool(inputSchema=s))


def test_desc007_names_each_value_once_when_branches_repeat_the_enum() -> None:
    one = {"type": "string", "enum": ["pending", "done"]}
    state = {"anyOf": [one, {"type": "array", "items": one}], "description": "Filter by state"}
    (f,) = run("DESC-007", tool(inputSchema=schema({"state": state})))
    assert "is an enum (pending, done) but" in f.message


@pytest.mark.parametrize(
    ("values", "text"),
    [
        (["水产", "早餐", "荤菜"], "菜谱分类名称，如水产、早餐等"),  # CJK values, named as written
        ([".", ","], "Decimal separator: '.' or ','"),  # punctuation only
        (["", "'", '"'], "Text qualifier; '' for none."),  # the empty string
        (["general"], "The search topic"),  # one value: nothing to choose
        (["asc", "desc"], "Return projects sorted in ascending or descending order"),  # spelled out
        (["number", "enum"], "Data type: numeric or enumeration type"),
    ],
)
def test_desc007_values_of_other_kinds_are_found_as_written(values: list[str], text: str) -> None:
    arg = {"type": "string", "enum": values, "description": text}
    assert not fires("DESC-007", tool(inputSchema=schema({"v": arg})))


@pytest.mark.parametrize(
    ("values", "text"),
    [
        (["水产", "早餐"], "菜谱分类名称"),
        ([".", ","], "Decimal separator"),
        (["", "x"], "Text qualifier"),
        (["asc", "desc"], "Sort order; see the description of each field"),  # 'description' is not 'desc'
    ],
)
def test_desc007_values_of_other_kinds_not_named(values: list[str], text: str) -> None:
    assert fires("DESC-007", tool(inputSchema=schema({"v": {"type": "string", "enum": values, "description": text}})))


def test_desc007_whole_words_only() -> None:
    # "c" must not count as mentioned just because the description contains the letter c.
    s = schema({"unit": {"enum": ["c", "f"], "description": "Choose the scale"}})
    assert fires("DESC-007", tool(inputSchema=s))


@pytest.mark.parametrize(
    ("values", "text"),
    [
        (["day", "week", "month"], "Group counts by days, weeks or months."),  # plurals
        (["box", "bag"], "Pack items in boxes."),
        (["inProgress", "done"], "Only tasks that are still in progress."),  # camelCase in words
        (["InProgress", "Done"], "Only tasks in progress."),
        (["openIssue", "closedIssue"], "Count the open issues."),
        (["country", "city"], "Group traffic by countries or cities."),  # -y plurals
        (["email", "sms"], "Send the code by e-mail or text."),  # a word written with a hyphen
        (["webhook", "poll"], "Deliver events by web-hook."),
    ],
)
def test_desc007_plurals_and_camel_case_in_words_are_mentioned(values: list[str], text: str) -> None:
    assert not fires("DESC-007", tool(inputSchema=schema({"group": {"enum": values, "description": text}})))


@pytest.mark.parametrize(
    ("values", "text"),
    [
        (["day", "week", "month"], "Group counts by period."),
        (["inProgress", "done"], "Only tasks that are still open."),
        (["i", "o"], "Which way is it?"),  # 'is' is no plural of 'i': two letters are too short
        (["day", "week"], "Group by dayss or weekly."),
        (["country", "city"], "Group traffic by counties or sites."),
        (["email", "sms"], "Send the code by e-post."),
    ],
)
def test_desc007_plurals_and_camel_case_near_misses(values: list[str], text: str) -> None:
    assert fires("DESC-007", tool(inputSchema=schema({"group": {"enum": values, "description": text}})))


def test_desc007_a_plural_that_is_the_arguments_name_mentions_no_value() -> None:
    def days(text: str) -> dict[str, Any]:
        return tool(inputSchema=schema({"days": {"enum": ["day", "week"], "description": text}}))

    assert fires("DESC-007", days("Days to use"))
    assert not fires("DESC-007", days("Weeks"))
    entities = tool(inputSchema=schema({"entities": {"enum": ["entity", "event"], "description": "Entities to keep"}}))
    assert fires("DESC-007", entities)


def test_desc007_an_empty_value_written_as_quotes_is_mentioned_whatever_the_name() -> None:
    quote = {"enum": ['"', "'", ""], "description": "text_to_columns: '' for none."}  # excel-mcp-server
    assert not fires("DESC-007", tool(inputSchema=schema({"text_qualifier": quote})))


MERGE = ["merge", "squash", "rebase"]


@pytest.mark.parametrize(
    ("name", "text"),
    [  # github's merge_pull_request
        ("merge_method", "Merge method"),
        ("merge_method", "Merge method to use"),
        ("mergeMethod", "The merge method."),
        ("options.merge_method", "Merge method"),
    ],
)
def test_desc007_a_value_only_inside_the_arguments_name_is_not_mentioned(name: str, text: str) -> None:
    [finding] = run("DESC-007", tool(inputSchema=schema({name: {"enum": MERGE, "description": text}})))
    assert "mentions none of the values" in finding.message


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("merge_method", "Merge method: merge, squash or rebase"),
        ("merge_method", "The merge method; defaults to merge."),
        ("merge_method", "Squash the commits or merge them"),
        ("strategy", "Merge strategy"),  # the value is no word of this name
    ],
)
def test_desc007_a_value_named_beside_the_arguments_name_is_mentioned(name: str, text: str) -> None:
    assert not fires("DESC-007", tool(inputSchema=schema({name: {"enum": MERGE, "description": text}})))


REVIEW = ["create", "submit_pending", "delete_pending"]


def _method(values: list[str]) -> dict[str, Any]:
    return schema({"method": {"type": "string", "enum": values, "description": "The write operation to perform."}})


@pytest.mark.parametrize(
    ("description", "values"),
    [  # github's pull_request_review_write and update_issue_state
        (
            "Write a pull request review.\n\nAvailable methods:\n- create: Create a new review.\n"
            "- submit_pending: Submit a pending review.\n- delete_pending: Delete a pending review.",
            REVIEW,
        ),
        ("Update the state of an existing issue (open or closed).", ["open", "closed"]),
        ("Get multiple stories by type (top, new, best, ask, show, job)", ["top", "new", "best", "ask", "show", "job"]),
    ],
)
def test_desc007_values_the_tool_description_explains_count(description: str, values: list[str]) -> None:
    assert not fires("DESC-007", tool(description=description, inputSchema=_method(values)))


@pytest.mark.parametrize(
    ("description", "values"),
    [
        ("Create a review of a pull request.", REVIEW),  # one value of three
        ("Create a review, or submit a pending one.", REVIEW),  # submit_pending is not "submit a pending"
        ("List, create, close, or select a browser tab.", ["list", "new", "close", "select"]),  # new is not named
        ("Set the filter and sort the rows or hide them.", ["and", "or"]),  # words any prose holds
        ("Show all issues or only the open ones.", ["all", "open"]),
    ],
)
def test_desc007_the_tool_description_must_name_every_value(description: str, values: list[str]) -> None:
    assert fires("DESC-007", tool(description=description, inputSchema=_method(values)))


# ---------------------------------------------------------------- DESC-008


def test_desc008_fires_when_argument_outweighs_tool() -> None:
    s = schema({"sql": {"type": "string", "description": "A single SELECT statement in the warehouse dialect."}})
    assert fires("DESC-008", tool(description="Run a SQL query here.", inputSchema=s))


def test_desc008_near_misses() -> None:
    s = schema({"sql": {"type": "string", "description": "A single SELECT statement."}})
    assert not fires("DESC-008", tool(description="Run a read-only SQL query and return rows.", inputSchema=s))
    # No tool description: DESC-001's business, not this rule's.
    assert not fires("DESC-008", tool(description=..., inputSchema=s))


def test_desc008_measures_cjk_as_desc001_does() -> None:
    # bazi's buildBaziFromLunarDatetime: 17 characters against 24, but 47 against 41 weighted
    t = tool(
        description="根据农历时间、性别来获取八字信息。",
        inputSchema=schema({"lunar": {"type": "string", "description": "农历时间。例如：`2000-5-15 12:00:00`。"}}),
    )
    assert not fires("DESC-008", t)
    longer = {"lunar": {"type": "string", "description": "农历时间，含时辰与时区。例如：`2000-5-15 12:00:00`。"}}
    [finding] = run("DESC-008", {**t, "inputSchema": schema(longer)})
    assert finding.message == (
        "argument 'lunar' description (60 chars, counting a wide CJK character as 3) is longer than "
        "the tool description (47 chars, counting a wide CJK character as 3)"
    )


# ---------------------------------------------------------------- DESC-009

TWO_PROPS = {"city": {"type": "string", "description": "City"}, "days": {"type": "integer", "description": "Days"}}


@pytest.mark.parametrize(
    "s",
    [
        schema(TWO_PROPS),
        schema({"city": {"type": "string", "description": "City"}}, ["city"]),
        schema({"days": {"type": "integer", "description": "Days"}}),
    ],
)
def test_desc009_fires_on_non_trivial_schema_without_examples(s: dict[str, Any]) -> None:
    findings = run("DESC-009", tool(inputSchema=s))
    assert [f.pointer for f in findings] == ["/tools/0/inputSchema"]


@pytest.mark.parametrize(
    "t",
    [
        tool(inputSchema=schema({})),
        tool(inputSchema=schema({"q": {"type": "string", "description": "Query"}})),
        tool(inputSchema=schema(TWO_PROPS), examples=[{"city": "Paris", "days": 3}]),
        tool(inputSchema=schema({**TWO_PROPS, "days": {"type": "integer", "default": 3}})),
        tool(inputSchema=schema({**TWO_PROPS, "city": {"type": "string", "examples": ["Paris"]}})),
        tool(inputSchema=schema({**TWO_PROPS, "city": {"type": "string", "example": "Paris"}})),
        tool(inputSchema=schema({**TWO_PROPS, "city": {"type": "string", "description": "City, e.g. Paris"}})),
        tool(description=GOOD_DESC + " For example: city=Paris, days=3.", inputSchema=schema(TWO_PROPS)),
        # whole-call examples on the schema, and an optional argument's example or default on its branch
        tool(inputSchema=schema(TWO_PROPS, examples=[{"city": "Paris", "days": 3}])),
        tool(inputSchema=schema({**TWO_PROPS, "city": {"anyOf": [{"type": "string", "examples": ["Paris"]}, {}]}})),
        tool(
            inputSchema=schema({**TWO_PROPS, "days": {"oneOf": [{"type": "integer", "default": 5}, {"type": "null"}]}})
        ),
    ],
)
def test_desc009_near_misses(t: dict[str, Any]) -> None:
    assert not fires("DESC-009", t)


def _with_city_text(text: str) -> dict[str, Any]:
    return tool(inputSchema=schema({**TWO_PROPS, "city": {"type": "string", "description": text}}))


@pytest.mark.parametrize(
    "text",
    [
        "City name. Example usage: Paris",
        "An example city is Osaka.",
        "City (examples of valid cities are: Paris, Osaka)",
        "City, such as `Paris` or `Osaka`",
        "Paths like '$.panels[0]' select a panel",
        "City. Not required. Use a name like 'Paris'.",  # the negation is in another sentence
        "City names like 'Paris' do not need a country.",  # it comes after the value
        "中文城市名称，例如：北京",
        "要查询的城市，比如北京",
        "菜谱分类名称，如水产、早餐、荤菜、主食等",  # 如, "such as" (howtocook)
        '过敏原列表，如["大蒜", "虾"]',
        "Number of days (default: 7)",
        "Defaults to 'Paris' when omitted.",
        "Units. Defaults to metric.",
        "Version tag. Defaults to 'latest'.",  # quoted, a relative word is a value
        "Position. Default: lastly.",  # the word is another one
        "Whether to round. Defaults to false",
        "Sheets to create. Default: ['Sheet1'].",
        "Maximum passages to return (default 8)",
        "Max results, default 100",
        "Include archived ones. Default false.",
        "Retries; the default value is 3.",
        "Items per page. The default size is 100",  # a word or two between (Notion)
        "Max lines to return (default ~80)",  # mcp-grafana's get_doc
        "Port or port range, ex: 1024:2048",
        "Message timestamp in the format '1234567890.123456'",
        "Body: { shift: 'Up' } or { shift: 'Left' }",
        'Body: { shift: "Up" }',
        "Body: { shift: false }",
        "Page size. Default is null when omitted.",
        '### Single Statement Example\n```json\n{"Effect": "Allow"}\n```',
        # a default value in prose after "of" or in brackets (desktop-commander, arxiv-mcp-server)
        "Has a default timeout of 30 seconds which can be customized.",
        "Maximum characters; omit for the bounded default (12,000 chars)",
        "Mode: `similar` (papers in the same niche; the default) or `citers` (papers that cite them)",
        "Output format, `json` (default) or `csv`.",
        # one of the tool's own arguments given a literal value (arxiv-mcp-server, github)
        "City name. Set days=3 for a three-day forecast.",
        "City; use `add` with `days=7` for a week.",
        'City name; pass city="Paris" for France.',
        # "e.g." with a dot left out, and a default value before "by default" or after "defaulting to"
        "City name, e.g Paris",
        "City name, E.g Osaka",
        "City name (eg Paris)",
        "City name, eg: Paris",
        "City name, eg. 'Paris'",
        "Page size, 50 by default",
        "Timeout in seconds (30 by default)",
        "Output format; 'json' by default",
        "Page size, defaulting to 25",
    ],
)
def test_desc009_examples_given_in_words(text: str) -> None:
    assert not fires("DESC-009", _with_city_text(text))


@pytest.mark.parametrize(
    "text",
    [
        "City name; the default is used when omitted.",
        "Start of the window; defaults to the last 24 hours.",
        "Time zone, by default the server's.",
        "Cities such as these are looked up by name.",  # no quoted value after "such as"
        # a value to avoid, not an example (a museum server's intent argument)
        'City name. Don\'t use first-person pronouns like "I" or "my".',
        "City name; never pass aliases like 'SF'.",
        "City name. Avoid codes like `PAR`, spell it out.",
        "City name, which must not hold a region like 'Île-de-France'.",
        "A date in the format 'YYYY-MM-DD'.",  # a pattern, not a value
        "A complex. value",  # 'ex' inside a word
        "Returns {type: object} maps.",  # a shape, no value
        "The default settings are used.",
        "See the example below",
        "Config key. No examples are available.",
        "城市名称，如果为空则查询全部",  # 如果 is "if"
        "要查询的城市，如何填写请看文档",  # 如何 is "how"
        "The default behaviour is to search everything.",
        "Region; the default region is the caller's own.",
        "Has a default timeout of several seconds.",  # no value after "of"
        "City. Keeps the default behaviour of search.",
        "City; the default (recommended) one is the capital.",
        "Mode: `city` (uses the server default).",  # a default, but no value is marked as it
        "City. Defaults to the user's settings.",  # a behaviour, as "defaults to the last 24 hours"
        "City. By default, results are sorted by name.",
        "City. Set days=max_days to see the whole range.",  # no literal value
        "City. Body weight: IBW = 50 kg + 2.3 kg per inch.",  # IBW is no argument of the tool
        "City. Use limit=10 for the top ten.",
        # a word that names a point relative to the call, not a value (github, excel servers)
        "City (optional, defaults to latest)",
        "City. Default: Now",
        "City; position of the new sheet. Default: last.",
        "City, defaults to current.",
        "City, sent over the egress proxy.",  # "eg" inside a word
        "City whose PEG ratio is wanted.",
        "City column, sorted by default.",  # a behaviour, no value
        "City; rows are sorted by default.",
        "City, defaulting to the user's home.",
    ],
)
def test_desc009_defaults_and_asides_that_give_no_value(text: str) -> None:
    assert fires("DESC-009", _with_city_text(text))


@pytest.mark.parametrize(
    "description",
    [
        # a docstring's worked call of the tool itself (pykrx's get_stock_market_cap)
        'Get the weather.\n\nReturns:\n    DataFrame:\n        >> get_weather("Paris", 3)\n        Paris  21C',
        'Get the weather for a city, called as get_weather(units="metric").',
        "Get the weather. get_weather(3) gives three days.",
        "Get the weather: `get_weather(['Paris', 'Osaka'])`.",
    ],
)
def test_desc009_a_worked_call_of_the_tool_counts(description: str) -> None:
    assert not fires("DESC-009", tool(description=description, inputSchema=schema(TWO_PROPS)))


@pytest.mark.parametrize(
    "description",
    [
        "Get the weather. Call get_weather() with no arguments for the current city.",
        "Get the weather. Call get_weather(city) then get_weather(city, days).",
        'Get the weather. Unlike get_weather_v2("Paris"), it takes no units.',  # another tool's call
        'Get the weather. Unlike forget_weather("Paris"), it keeps the cache.',
        "Get the weather (2 calls a minute at most).",
    ],
)
def test_desc009_a_mention_of_the_tool_without_values_is_no_example(description: str) -> None:
    assert fires("DESC-009", tool(description=description, inputSchema=schema(TWO_PROPS)))


def test_desc009_example_on_array_items_counts() -> None:
    kinds = {"type": "array", "items": {"type": "string", "example": "Dividend"}}
    assert not fires("DESC-009", tool(inputSchema=schema({"kinds": kinds, **TWO_PROPS})))
    assert fires("DESC-009", tool(inputSchema=schema({"kinds": {**kinds, "items": {"type": "string"}}, **TWO_PROPS})))


def test_desc009_an_example_in_a_part_of_an_allof_counts() -> None:
    # zod-to-json-schema writes z.intersection(A, B) as allOf: [A, B]
    def record(note: str) -> dict[str, Any]:
        parts = [
            {"type": "object", "properties": {"id": {"type": "string", "description": f"Record id{note}"}}},
            {"type": "object", "properties": {"version": {"type": "integer", "description": "Version"}}},
        ]
        return tool(inputSchema=schema({"record": {"allOf": parts, "description": "The record"}, **TWO_PROPS}))

    assert not fires("DESC-009", record(", e.g. 'r1'"))
    assert fires("DESC-009", record(""))


def test_desc009_nested_example_counts() -> None:
    s = schema({"f": {"type": "object", "properties": {"x": {"type": "string", "examples": ["a"]}}}, **TWO_PROPS})
    assert not fires("DESC-009", tool(inputSchema=s))


# ---------------------------------------------------------------- DESC-010


def test_desc010_fires_without_return_wording() -> None:
    assert fires("DESC-010", tool(description="Search orders by customer name."))
    # "outputSchema": null declares no result (SCH-013 reports the null itself)
    assert fires("DESC-010", tool(description="Search orders by customer name.", outputSchema=None))


@pytest.mark.parametrize(
    "t",
    [
        tool(description="Search orders by customer. Returns a list of orders."),
        tool(description="Search orders by customer; the output is a CSV table."),
        tool(description="Search orders by customer name.", outputSchema={"type": "object"}),
        tool(description="Weather data for cities worldwide."),  # no action stated: DESC-004's business
        tool(description=""),
        tool(description="搜索订单并列出客户名称。"),
        # What comes back, said without a return word: a format, a field list, a conversion target.
        tool(description="Get the current drawing canvas as a PNG image (base64 encoded)."),
        tool(description="Get the complete server configuration as JSON."),
        tool(description="Read the full content of a stored paper in markdown format."),
        tool(description="Retrieve metadata about a file including:\n- size\n- creation time"),
        tool(description="Convert an address into geographic coordinates."),
        tool(description="Convert DOCX files to PDF format."),
        # the target named by "between" or "to the nearest" (unit-converter, time, searxng, math-mcp)
        tool(description="Convert power between units."),
        tool(description="Convert time between timezones"),
        tool(description="Convert text between different encodings"),
        tool(description="Convert between different document formats (Markdown, HTML, XML, JSON)"),
        tool(description="Translate a phrase between English and French."),
        tool(description="Convert a config between JSON and YAML."),
        tool(description="Rounds a number down to the nearest integer"),
        tool(description="Round a price to 2 decimal places."),
        tool(description="Echoes back the input string"),  # what comes back is what went in
        tool(description="Resolve a hostname and get back its A and CNAME records."),  # "get back", "come back"
        tool(description="Reads the value at a Redis key. Strings come back as text."),
        # what is shown or provided, and a read's fields listed without a colon
        tool(description="Provides the current state of the chessboard as an image."),
        tool(description="This provides a summary of revenue, expenses, and profit or loss."),
        tool(description="Delete a task. A progress table will be displayed showing the remaining tasks."),
        tool(description="Shows the contents of a commit"),
        tool(description="Shows the commit logs"),  # plurals and the changes a diff shows (mcp-server-git)
        tool(description="Shows changes in the working directory that are not yet staged"),
        tool(description="Shows differences between branches or commits"),
        tool(description="Compare two text files and show differences"),
        tool(description="This tool provides comments on the playstyle of TFT champions."),
        tool(description="Get details about a place including contact details, reviews, ratings, and hours"),
        # two fields after "including", as after "with their" (mcp-simple-arxiv, mcp-grafana)
        tool(description="Get detailed information about a paper including abstract and available formats"),
        tool(description="Get a Grafana snapshot by key, including snapshot metadata and dashboard payload."),
        # a sample of the fields after a noun for what a read returns (opgg)
        tool(description="Retrieves information about a summoner, such as their rank, win rate, and match history."),
        tool(description="Retrieves detailed information about a champion, such as win rate, pick rate, items, etc."),
        # a sentence opening with a third-person "Shows"/"Provides"/"Displays", whatever it names (dex-paprika)
        tool(description="Get recent transactions for a specific pool. Shows swaps, adds, removes."),
        tool(description="Get the commit logs.\nDisplays the author and date of each."),
        tool(description="Get a quote. Provides detailed pricing data for the product."),  # a result, adjectives first
        tool(description="List discussion categories with their id and name."),
        # a clause after "and", a bracketed note on an item, a sentence opening "Includes" (grafana, supabase)
        tool(description="List custom fields, including their type and, for select fields, the options to choose."),
        tool(description="Gets all API keys for a project, including legacy keys (JWT-based) and publishable keys."),
        tool(description="Gets details for an organization. Includes subscription plan."),
        tool(description="Read a commit\nContains the author and the date."),
        tool(description="Get the performance of a campaign: delivery, opens, clicks and unsubscribes."),
        # a list item that opens with "Provides" or "Shows", bulleted as numbered (sequential-thinking)
        tool(description="Plans a trip.\n\nFeatures:\n- Weighs train and bus options\n- Provides an itinerary"),
        tool(description="Plans a trip.\nFeatures:\n* Shows the cheapest connection"),
        tool(description="Plans a trip.\n  \u2022 Displays each leg's times"),
        tool(description="Plans a trip.\n1. Provides a day-by-day itinerary"),
    ],
)
def test_desc010_near_misses(t: dict[str, Any]) -> None:
    assert not fires("DESC-010", t)


@pytest.mark.parametrize(
    "text",
    [
        "Save the drawing canvas to disk.",  # "to" without a conversion verb
        "Search orders including archived ones.",  # "including" without a list
        "Rolls a deployment back to its previous revision.",  # "back" that is no result
        "Sets the clock back one hour on the device.",
        "Create a note; the text may hold markdown.",  # a format, but not of what comes back
        "Convert the draft.",  # a conversion with no target
        "Convert the draft between reviews.",  # "between" something that is no target
        "Translate the uploaded document; this usually takes between 5 and 30 seconds.",  # nor a span of time
        "Converts the video file in place, retrying between attempts and timeouts.",
        "Transform the dataset stored between the staging and production buckets.",
        "Move files between directories.",  # "between" without a conversion
        "Round the draft off.",  # "round" with no target
        "Schedule rounds between teams to the end of the season.",  # the noun
        "Echo the message to the server log.",  # an echo that does not come back
        "Search issues, including closed ones, by label.",  # a list needs an "and"
        "Delete a project and its resources including networks, volumes, and images.",  # what is affected
        "Delete a project including its volumes and networks.",
        "Delete a project including its volumes (detached) and networks.",
        "Delete an organization. Includes its projects.",  # after a write, what is affected
        "Get a token. The scope includes read access.",  # not where a sentence opens
        "Get a token (includes refresh).",
        "Find tasks including those assigned to any member of the whole team and their guests.",  # no short list
        "Fetch Grafana annotations using filters such as dashboard UID, time range and tags.",  # no noun for a result
        "Update user details such as name, email and phone.",  # what is changed, not what comes back
        "Get data for a region such as Europe.",  # no list of fields
        "Search for listings. Provide direct links to the user.",  # the imperative: an instruction
        "Open the settings panel. Provides access to the admin API.",  # a means, not what comes back
        "Provides programmatic access to the Jira API for issues.",  # a means, with words before it
        "Provides an easy way to search files in the workspace.",
        "Get data from sources such as S3, GCS and Azure into the workspace.",  # where it comes from
        "Open a dialog that shows options for the export.",  # not where a sentence opens
        "Open the admin panel.\n- Provides access to the admin API.",  # a list item naming a means
        "Create a user with a name and an email.",  # "with" a list, but not "with its/their"
        "Show a notification to the user.",  # shown, but not a result
        "Show the settings dialogs in the app.",
        "Generate a boxplot chart to show data for statistical summaries among categories.",
        "Upload a photo and set it as a profile picture.",
    ],
)
def test_desc010_fires_when_those_forms_say_nothing_of_the_result(text: str) -> None:
    assert fires("DESC-010", tool(description=text))


@pytest.mark.parametrize(
    "text",
    [
        "Retrieve a page\nError Responses:\n400: Bad request",  # the errors' heading (Notion's API tools)
        "List issues. For pagination, use the 'endCursor' from the previous response's 'pageInfo'.",
        "Ask Playwright to start waiting for a HTTP response.",
        "Start a process. Use read_process_output() to get responses.",  # another tool's
        "List dashboard snapshots with optional query and result limit filters.",
        "Get photos. Args: page: Page number for results (25 photos per page).",
        "Generate the report. When present, you must start your response with a warning.",  # the agent's
        "Delete the folder. Omitting the path will result in an error.",
        "Download usage data into the output directory.",
        # the agent's answer, not what the tool gives back (sequential-thinking)
        "Record one step of your reasoning. Provide a single, ideally correct answer as the final output.",
        "Plan the research. Write the final response once every part is answered.",
        # results the agent is to deliver, as a list item or after "you" (biomcp's think)
        "Record one reasoning step.\n\nUsing it first ensures you:\n1. Understand the question\n2. Deliver results",
        "Record one reasoning step.\n    5. Deliver comprehensive, well-reasoned results",
        "Record one reasoning step. Using it first helps you deliver well-reasoned results to the user.",
        "Record one reasoning step.\n- deliver the results",
    ],
)
def test_desc010_return_nouns_that_are_not_this_tools_result(text: str) -> None:
    assert fires("DESC-010", tool(description=text))


@pytest.mark.parametrize(
    "text",
    [
        "List collaborators. Results are paginated; the response includes nextPage.",
        "Search the web. Maximum 20 results per request.",
        "List directories. Results distinguish between files and directories.",
        "Create a project. The DSN is included in the output.",
        "Query the API endpoint with jq-style response filtering; the response can be very large.",
        "Fetch a page with the error response body when the request fails.",
        "Get the server info. Responds with its version.",
        "Run the pipeline. Returns the final result.",  # a return word, whatever its object
        "Run the pipeline; the final stage's output is a CSV table.",
        "Search the index. Delivers results in under 100 ms.",  # the tool delivers them
        "Search the index and deliver results as they arrive; you deliver nothing else.",  # a later result noun
        "Search the index to deliver matching results.",  # "to deliver": what the tool is for
    ],
)
def test_desc010_return_nouns_about_this_tools_result(text: str) -> None:
    assert not fires("DESC-010", tool(description=text))


# ---------------------------------------------------------------- DESC-011


@pytest.mark.parametrize("value", ["true", 1, None, {"x": 1}])
def test_desc011_fires_on_non_boolean_hint(value: Any) -> None:
    findings = run("DESC-011", tool(annotations={"readOnlyHint": value, "destructiveHint": False}))
    assert [f.pointer for f in findings] == ["/tools/0/annotations/readOnlyHint"]


@pytest.mark.parametrize("hint", ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"])
def test_desc011_checks_every_hint(hint: str) -> None:
    findings = run("DESC-011", tool(annotations={hint: "true"}))
    assert [f.pointer for f in findings] == [f"/tools/0/annotations/{hint}"]


def test_desc011_near_misses() -> None:
    assert not fires("DESC-011", tool(annotations={"readOnlyHint": True, "openWorldHint": False}))
    assert not fires("DESC-011", tool(annotations={"title": "Weather", "customHint": "yes"}))
    assert not fires("DESC-011", tool(annotations=...))


# ---------------------------------------------------------------- DESC-012


@pytest.mark.parametrize("value", [..., None, "readOnly", []])
def test_desc012_fires_without_annotations_object(value: Any) -> None:
    findings = run("DESC-012", tool(annotations=value))
    assert [f.pointer for f in findings] == ["/tools/0/annotations"]


def test_desc012_near_miss_empty_object() -> None:
    assert not fires("DESC-012", tool(annotations={}))


# ---------------------------------------------------------------- DESC-013


@pytest.mark.parametrize(
    "desc",
    [
        "The new status, one of open, closed, or pending.",
        "Sort direction. Must be 'asc' or 'desc'.",
        "Output format. Allowed values: json, csv, xml",
        "The type of query to use. Either 'range' or 'instant'",
        "Filter by state (one of: new, acknowledged, resolved)",
        "The action to perform.\nOptions are:\n- 'add' - add an item\n- 'remove' - remove an item\n",
        "Sort order, one of asc or desc. For example 'desc'.",  # the example is a listed value
        # closed sets with other intros (yahoo-finance, mcp-grafana, biomcp)
        'The period. Defaults to "1mo". Valid periods: "1d", "5d", "1mo", "1y", "max"',
        "One of the '=' or '!=' or '=~' or '!~'",
        "Operation type: 'replace', 'add', 'remove'",
        "Recall status (ongoing, completed, terminated)",
        "Type of biomarker ('reference_gene' or 'branch')",
        "Grafana-managed only. State on execution error: NoData, Alerting, OK (required for 'create', 'update')",
        "Scope to filter attributes by (span, resource, event, link). Strongly recommended.",
        "Allowed values are json and csv.",
        "Accepted values: json, csv.",
        "Mode when idle: fast, slow.",  # a label with a qualifier, not a condition
        # quoted values with a short note in brackets (mcp-grafana's query_loki_logs and query_pyroscope)
        "Query type: 'range' (default) or 'instant'. Instant queries return a single value.",
        'Query type: "profile" (flamegraph), "metrics" (time-series), or "both" (default). Use "both" always',
        "Sort direction. Must be 'asc' (oldest first) or 'desc' (newest first, default).",
        # each value quoted after the words it names (mcp-server-git's git_branch), a space or none before it
        "Whether to list local branches ('local'), remote branches ('remote') or all branches('all').",
        'Open issues ("open"), closed ones ("closed"), or all ("all")',
        # a label that ends in granularity, resolution or timeframe (dex-paprika's getPoolOHLCV)
        "Interval granularity: 1m, 5m, 10m, 15m, 30m, 1h, 6h, 12h, 24h",
        "Chart resolution: 1h, 4h or 1d",
    ],
)
def test_desc013_fires_on_values_spelled_out(desc: str) -> None:
    s = schema({"status": {"type": "string", "description": desc}})
    findings = run("DESC-013", tool(inputSchema=s))
    assert len(findings) == 1, desc
    assert findings[0].pointer == "/tools/0/inputSchema/properties/status/description"


@pytest.mark.parametrize(
    "desc",
    [
        "City name, e.g. Paris or Osaka",
        "A city such as 'Paris' or 'Osaka'.",
        "City name, e.g. 'Paris' (France) or 'Osaka' (Japan)",  # examples, with notes
        "Region type, e.g. 'city' (a town) or 'country'.",
        "Either a file path or a URL.",
        "If the field is a checkbox, the value should be `true` or `false`.",
        "The SHA of the commit (optional, defaults to latest)",
        "The content should be accurate, rich, creative, and attractive.",
        "Use either 'after_id' or 'before_id' to specify the new position.",
        # the list names levels; the example shows a value outside it (mcp-server-chart's district map)
        'A region name, must be one of country, province, city or county. For example, "Shaanxi" is fine.',
        # a set left open (awslabs.eks-mcp-server's log_type):
        'Log type. Options:\n- "application": app logs\n- "host": node logs\n'
        "- Or provide a custom CloudWatch log group name directly",
        "Language, one of en, fr or de, or any other ISO 639-1 code.",
        # sets that hold under a condition (mcp-nixos's type):
        "Sub-type. For source=nixos with action=search, one of: packages, options, programs."
        " For store, one of: ls, read.",
        # a string that holds several values: an enum would refuse "created,updated" (Microsoft Graph)
        "The supported values are: created, updated, deleted. Multiple values can be combined using a comma.",
        "Categories, separated by commas. The allowed values are 'Security', 'ErrorProne' and 'Style'.",
        # JSON whose inner field takes the values (awslabs billing server)
        "Optional JSON string containing a list of billing view types.\nValid values: PRIMARY, BILLING_GROUP, CUSTOM",
        "Optional JSON object containing a list of view types.\nValid values: PRIMARY, BILLING_GROUP, CUSTOM",
        # samples, not the set
        "Possible values include 'en', 'de', 'fr' and more.",
        "Output format (json, csv, etc.)",
        "One of json, csv, etc.",
        "Examples: one of json or csv.",
        "A format such as one of json or csv.",
        # the list names kinds of value: the example is none of them
        "One of country, province or city; for example `Xian`.",
        "One of country, province or city; for example 'Paris'.",
        "MIME type of the image (e.g., image/png, image/jpeg)",
        "Type of organization (e.g., 'Academic', 'Industry', 'Government')",
        # a value may carry a prefix an enum would refuse
        "One of name, size or date; prefix with '-' for descending order.",
        # sets under a condition
        "Object kind. For databases, one of: table, view; for buckets, one of: file, folder.",
        "With action=search, one of: fast, slow.",
        "For source=nixos, one of: fast, slow.",
        # a label, but no bare list of values after it
        "Sort order: newest first unless told otherwise.",
        "Status of the order (pending means unpaid, paid means settled).",
        "Operation type: replace the value, or add one.",
        # a quoted value its own words do not hold is an example of a format, not the name of a choice
        "Use the full name ('owner/repo') or the id ('123')",
        "A branch name ('main') or a tag ('v1.0')",
        "The repository ('owner/name'), or a URL",
        # a list after a glossed one leaves it open, as an open set does
        "Local branches ('local'), remote branches ('remote') or any other ref, etc.",
        # formats, not values; a string that holds several; a set another clause leaves open (probe, round 6)
        "Billing period. Accepted formats: 'YYYY-MM' or 'YYYY-MM-DD'.",
        "Time of day; must be 'HH:MM' or 'HH:MM:SS'.",
        "Space-separated scopes. Allowed values: read, write, admin.",
        "OAuth scopes, separated by spaces. Valid values: 'repo', 'gist', 'user'.",
        "Assignee filter: must be 'none' or '*'; any other value is read as a username.",
        "Query resolution: 15s, 1m or 5m; any Prometheus duration also works.",
        "Query resolution: 15s, 1m or 5m. Other Prometheus durations are accepted too.",
    ],
)
def test_desc013_near_misses(desc: str) -> None:
    s = schema({"status": {"type": "string", "description": desc}})
    assert not fires("DESC-013", tool(inputSchema=s)), desc


@pytest.mark.parametrize(
    ("name", "desc", "fires_"),
    [
        ("type", "annotation or alert", True),  # the name is the label (mcp-grafana get_annotations)
        ("filter.mode", "fast, balanced or thorough.", True),
        ("sort_order", "asc or desc", True),
        ("owner", "username or organization", False),  # no label: kinds of value
        ("type", "The kind of object, a page or a database", False),  # prose, not only the values
        ("type", "Annotation or alert", False),  # a sentence, capitalised
        ("mytype", "annotation or alert", False),  # the label word inside another word
    ],
)
def test_desc013_the_arguments_name_as_the_label_of_a_bare_list(name: str, desc: str, fires_: bool) -> None:
    outer, _, last = name.rpartition(".")
    prop: dict[str, Any] = {last: {"type": "string", "description": desc}}
    if outer:  # a nested argument: filter.mode
        prop = {outer: {"type": "object", "properties": prop}}
    assert bool(run("DESC-013", tool(inputSchema=schema(prop)))) is fires_


def test_desc013_reads_a_glossed_list_a_short_sentence_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its search is quadratic in what it is given: 22 KB of "word word ('v'), " took 10 s read whole."""
    import catalint.rules.desc as desc_rules

    given: list[int] = []
    real = desc_rules._GLOSSED

    class Counting:
        def finditer(self, text: str) -> Any:
            given.append(len(text))
            return real.finditer(text)

    monkeypatch.setattr(desc_rules, "_GLOSSED", Counting())
    hostile = "word word ('v'), " * 1300 + "or z ('z'). Sort by date ('date') or name ('name')."
    (finding,) = run("DESC-013", tool(inputSchema=schema({"order": {"type": "string", "description": hostile}})))
    assert "(date, name)" in finding.message  # the short sentence after it is still read
    assert given and max(given) <= desc_rules._GLOSSED_SENTENCE


def test_desc013_shows_glossed_values_without_their_notes() -> None:
    desc = "The direction: 'forward' (oldest first) or 'backward' (newest first, default)"
    (finding,) = run("DESC-013", tool(inputSchema=schema({"direction": {"type": "string", "description": desc}})))
    assert "(forward, backward)" in finding.message


def test_desc013_a_quoted_value_is_one_value_slash_and_all() -> None:
    desc = "Content type; must be 'image/png' or 'image/jpeg'."
    (finding,) = run("DESC-013", tool(inputSchema=schema({"mime": {"type": "string", "description": desc}})))
    assert "(image/png, image/jpeg)" in finding.message  # it read (image, png, image, jpeg)
    # so another argument's enum of the same media types is seen to be the set it names
    other = {"target": {"type": "string", "enum": ["image/png", "image/jpeg"], "description": "Target format"}}
    assert not fires("DESC-013", tool(inputSchema=schema({"mime": {"type": "string", "description": desc}, **other})))


@pytest.mark.parametrize(
    "desc",
    [
        "Date granularity: 'day', 'week' or 'month'.",
        "Shirt size; must be 'S', 'M', 'L' or 'XL'.",  # single letters are values, not a template
        "Assignee filter: must be 'none' or '*'; any other value is rejected.",
        "Query resolution: 15s, 1m or 5m. Other values are refused.",
        "Permission level: read, write or admin.",
    ],
)
def test_desc013_near_misses_of_round_6_still_fire(desc: str) -> None:
    assert fires("DESC-013", tool(inputSchema=schema({"status": {"type": "string", "description": desc}}))), desc


def test_desc013_says_when_it_shows_only_some_of_the_values() -> None:
    desc = "One of: search, info, stats, browse, channels, flake-inputs, cache, store."
    (found,) = run("DESC-013", tool(inputSchema=schema({"action": {"type": "string", "description": desc}})))
    assert "(search, info, stats, browse, channels, flake-inputs, …)" in found.message


def test_desc013_double_quoted_values_may_hold_spaces() -> None:
    s = schema({"status": {"type": "string", "description": 'One of "in progress", "done".'}})
    (found,) = run("DESC-013", tool(inputSchema=s))
    assert "(in progress, done)" in found.message


def test_desc013_more_than_twelve_bare_words_are_prose_not_a_list() -> None:
    words = "red, green, blue, cyan, pink, gray, teal, navy, gold, plum, rose, sand"
    twelve = schema({"colour": {"type": "string", "description": f"One of {words}."}})
    thirteen = schema({"colour": {"type": "string", "description": f"One of {words}, lime."}})
    assert fires("DESC-013", tool(inputSchema=twelve))
    assert not fires("DESC-013", tool(inputSchema=thirteen))


def test_desc013_skips_arguments_with_enum_or_non_string_type() -> None:
    desc = "One of open, closed or pending."
    with_enum = schema({"s": {"type": "string", "enum": ["open", "closed", "pending"], "description": desc}})
    integer = schema({"s": {"type": "integer", "description": "One of 1, 2 or 3."}})
    untyped = schema({"s": {"description": desc}})
    nullable = schema({"s": {"type": ["string", "null"], "description": desc}})
    assert not fires("DESC-013", tool(inputSchema=with_enum))
    assert not fires("DESC-013", tool(inputSchema=integer))
    const = {"type": "object", "properties": {"s": {"const": "json", "description": "One of json or csv."}}}
    assert not fires("DESC-013", tool(inputSchema=const))
    assert fires("DESC-013", tool(inputSchema=untyped))
    assert fires("DESC-013", tool(inputSchema=nullable))


# ---------------------------------------------------------------- all rules together


def test_a_well_written_tool_is_clean_under_every_rule() -> None:
    t = {
        "name": "get_forecast",
        "description": "Get the weather forecast for a city for the next few days. Returns one entry per day.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "city": {
                    "type": "string",
                    "maxLength": 100,
                    "description": "City name in English",
                    "examples": ["Paris"],
                },
                "days": {"type": "integer", "description": "Days ahead, 1 to 7", "default": 3},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "description": "celsius or fahrenheit"},
            },
            "required": ["city"],
            "additionalProperties": False,
        },
        "annotations": {"readOnlyHint": True, "openWorldHint": True},
    }
    assert run("ALL", t) == []


def test_desc013_values_another_argument_declares_are_about_that_one() -> None:
    props = {
        "property": {"type": "string", "description": "Filters by type of object (either `page` or `data_source`)"},
        "value": {"type": "string", "enum": ["page", "data_source"], "description": "page or data_source"},
    }
    assert not fires("DESC-013", tool(inputSchema=schema(props)))
    props["value"]["enum"] = ["page", "database"]  # a different set: the prose lists this argument's own values
    assert fires("DESC-013", tool(inputSchema=schema(props)))
    props["value"]["enum"] = ["page", "data_source", "all"]  # a larger set, as the rule text says: not excused
    assert fires("DESC-013", tool(inputSchema=schema(props)))


def test_desc006_an_object_whose_fields_describe_themselves_needs_no_description() -> None:
    # OpenAPI-generated servers wrap arguments in `path`, `query` and `body` objects; the fields carry the text.
    path = {"type": "object", "properties": {"id": {"type": "string", "description": "Order ID"}}, "required": ["id"]}
    assert not fires("DESC-006", tool(inputSchema=schema({"path": path}, ["path"])))
    half = {
        "type": "object",
        "properties": {"id": {"type": "string", "description": "Order ID"}, "rev": {"type": "integer"}},
    }
    assert fires("DESC-006", tool(inputSchema=schema({"path": half}, ["path"])))  # one field bare: the wrapper too
    empty = {"type": "object", "properties": {}}
    assert fires("DESC-006", tool(inputSchema=schema({"body": empty}, ["body"])))


@pytest.mark.parametrize("through_ref", [False, True])
def test_desc006_an_array_of_objects_whose_fields_describe_themselves_needs_no_description(through_ref: bool) -> None:
    # The reference memory server's create_relations: `relations` is a list of {from, to, relationType}.
    fields = {
        "from": {"type": "string", "description": "Entity the relation starts at."},
        "to": {"type": "string", "description": "Entity the relation ends at."},
    }
    item = {"type": "object", "properties": fields, "required": ["from", "to"]}
    defs = {"$defs": {"Relation": item}} if through_ref else {}
    items = {"$ref": "#/$defs/Relation"} if through_ref else item
    t = tool(inputSchema=schema({"relations": {"type": "array", "items": items}}, ["relations"], **defs))
    assert not fires("DESC-006", t)
    parts = {p.key: p.value for p in score(Tool(0, "/tools/0", t)).parts}
    assert parts["parameters"] == 1.0  # TDQS reads it the same way
    fields["to"] = {"type": "string"}  # one field bare: the list needs its own description, and the field one
    messages = sorted(f.message for f in run("DESC-006", t))
    assert messages == [
        "required argument 'relations' has no description",
        "required argument 'relations[].to' has no description",
    ]
    strings = tool(inputSchema=schema({"tags": {"type": "array", "items": {"type": "string"}}}, ["tags"]))
    assert fires("DESC-006", strings)  # items with no fields say nothing


# ---------------------------------------------------------------- hostile sizes (audit, round 6)


def test_argument_rules_read_the_tool_description_once_not_once_an_argument() -> None:
    """DESC-007 read the tool description again for each enum argument, DESC-006 searched it for each
    undocumented required argument, and DESC-013 built every other argument's enum for each argument that
    lists values: 400 arguments and a 4 MB description took 13 to 18 s each."""
    import time

    values = [f"val{j}" for j in range(12)]
    text = "Returns the record. " + "word " * 800_000 + " ".join(values[:11])  # names 11 of the 12
    started = time.process_time()
    props = {f"a{i}": {"type": "string", "description": "Mode.", "enum": values} for i in range(400)}
    assert len(run("DESC-007", tool(description=text, inputSchema=schema(props)))) == 400
    listed = text + "\n" + "\n".join(f"r{i}: the r{i} value" for i in range(400))
    required = {"type": "object", "properties": {f"r{i}": {"type": "string"} for i in range(400)}}
    required["required"] = list(required["properties"])
    found = run("DESC-006", tool(description=listed, inputSchema=required))
    assert len(found) == 400 and all("the tool description's parameter list covers it" in f.message for f in found)
    prose = {f"p{i}": {"type": "string", "description": "One of open, closed or pending."} for i in range(400)}
    enums = {f"e{i}": {"type": "string", "description": "Mode.", "enum": [f"x{i}", f"y{i}"]} for i in range(400)}
    assert len(run("DESC-013", tool(description=text, inputSchema=schema({**prose, **enums})))) == 400
    assert time.process_time() - started < 10  # about 2 s now
