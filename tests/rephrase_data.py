"""Development data for the rephrase lens (#46): test items of three benchmark
styles written here, their rule-based rewrites, and hard negatives.

Nothing here comes from a published evaluation set. Items are built from
templates of our own with drawn names, objects, places and numbers, so a
negative is often an item of the *same template* (other names and numbers):
harder than most real training data. Rewrites, each a function of an item:

* ``synonyms``: words swapped for synonyms, and stock phrases reworded;
* ``reorder``: the question moved first, the story's sentences in another
  order (the options of a multiple-choice item shuffled);
* ``template``: another frame ("Question: ... Answer:" -> "Solve this: ...",
  option letters as "(a)" rather than "A.");
* ``rename``: code identifiers renamed (another word, camelCase for
  snake_case), parameters too;
* ``all``: every rewrite of the item's kind at once, the hardest.

:func:`dev_set` gives A (the test items), B (hard negatives, then the rewrites of
half of A, shuffled) and which B row holds each rewritten item.
"""

from __future__ import annotations

import random
import re

NAMES = ["Janet", "Marco", "Aisha", "Tomas", "Priya", "Dmitri", "Keiko", "Lucas", "Fatima",
         "Oliver", "Mei", "Samuel", "Ingrid", "Rafael", "Zainab", "Henry", "Chloe", "Kwame",
         "Sofia", "Arjun", "Beatriz", "Nikolai", "Hannah", "Diego", "Leila", "Victor", "Amara",
         "Jonah", "Yuki", "Gabriel", "Elena", "Omar", "Freya", "Mateo", "Ruth", "Tariq"]
OBJECTS = ["apples", "marbles", "stickers", "cupcakes", "pencils", "books", "seashells",
           "tomatoes", "cookies", "balloons", "candles", "postcards", "oranges", "muffins",
           "notebooks", "beads", "eggs", "crayons", "buttons", "lemons", "puzzles", "stamps",
           "carrots", "pebbles", "ribbons", "bagels", "plums", "kites", "socks", "toy cars"]
PLACES = ["farmers' market", "bakery", "school fair", "corner store", "garage sale",
          "flea market", "county fair", "bookshop", "craft fair", "grocery store"]
JOBS = ["tutor", "dog walker", "babysitter", "lifeguard", "cashier", "gardener", "barista"]

ITEMS = ["bike", "tablet", "guitar", "tent", "telescope", "scooter", "camera", "violin"]
#: A math item: an opener, two or three other sentences and a question, each drawn.
OPENERS = [
    "{name} has {n1} {obj}.",
    "{name}'s ducks lay {n1} eggs per day.",
    "{name} works as a {job} and earns ${p} an hour.",
    "The {place} sells {obj} for ${p} each.",
    "There are {n1} {obj} in a box on {name}'s porch.",
    "{name} is saving for a {item} that costs ${big}.",
    "A baker makes {n1} trays of {obj} with {n2} on each tray.",
    "{name} reads {n1} pages of a mystery novel on Saturday.",
    "A garden has {n1} rows of {obj} with {n2} plants in each row.",
    "{name} drives {n1} miles to visit {name2} in the next town.",
    "A class of {big} students is going on a field trip.",
    "{name} and {name2} open a lemonade stand on a hot afternoon.",
    "{name} runs {n1} laps around the park track.",
    "A bus leaves the station with {n1} passengers on board.",
]
MIDDLES = [
    "{pro} buys {n2} more at the {place}.",
    "{pro} gives {n3} of them to {name2}.",
    "On Monday {pro_l} finds {n2} more and on Tuesday {n3} more.",
    "{name2} has twice as many as {name}.",
    "Half of them are broken and get thrown away.",
    "{pro} works {n2} hours on Saturday and {n3} hours on Sunday.",
    "Each van can hold {n3} people.",
    "{pro} eats {n3} for breakfast every morning.",
    "A third of them are sold before noon.",
    "{pro} already has ${n2} in a piggy bank.",
    "Every week {pro_l} puts away ${n3} from {pro_p} allowance.",
    "At the first stop {n2} people get off and {n3} get on.",
    "The price goes up by {pct} percent in the spring.",
    "{pro} spends ${n3} on snacks for the road.",
    "It rains on {n3} of the days, so {pro_l} stays inside.",
    "Each lap is {n2} meters long.",
    "{name2} sells {n2} cups at ${p} a cup.",
    "{pro} shares the rest equally among {n3} cousins.",
]
QUESTIONS = [
    "How many {obj} does {name} have now?",
    "How much money does {name} make in a week?",
    "How many are left at the end of the day?",
    "How many weeks will it take {name} to reach the goal?",
    "How much does {name} earn in total?",
    "How many people are on the bus now?",
    "How many meters does {name} cover in all?",
    "What is the total cost in dollars?",
    "How many does each person get?",
    "How many more does {name2} have than {name}?",
]


def math_item(rng: random.Random, template: int) -> str:
    """One word problem: its sentences drawn (``template`` picks the opener)."""
    name, name2 = rng.sample(NAMES, 2)
    she = rng.random() < 0.5
    slots = dict(
        name=name, name2=name2, obj=rng.choice(OBJECTS), place=rng.choice(PLACES),
        job=rng.choice(JOBS), item=rng.choice(ITEMS), pro="She" if she else "He",
        pro_l="she" if she else "he", pro_p="her" if she else "his",
        n1=rng.randint(2, 60), n2=rng.randint(2, 40), n3=rng.randint(2, 20),
        p=rng.randint(2, 30), big=rng.randint(60, 900), pct=rng.choice([10, 15, 20, 25, 50]))
    sentences = [OPENERS[template]] + rng.sample(MIDDLES, rng.randint(2, 3)) + [
        rng.choice(QUESTIONS)]
    return " ".join(sentences).format(**slots)


CAPITALS = {"Australia": "Canberra", "Canada": "Ottawa", "Brazil": "Brasilia",
            "Kenya": "Nairobi", "Peru": "Lima", "Norway": "Oslo", "Vietnam": "Hanoi",
            "Egypt": "Cairo", "Chile": "Santiago", "Poland": "Warsaw", "Ghana": "Accra",
            "Turkey": "Ankara", "Nepal": "Kathmandu", "Cuba": "Havana", "Iran": "Tehran",
            "Morocco": "Rabat", "Finland": "Helsinki", "Portugal": "Lisbon",
            "Argentina": "Buenos Aires", "Thailand": "Bangkok", "Hungary": "Budapest",
            "Nigeria": "Abuja", "Pakistan": "Islamabad", "Ireland": "Dublin"}
ELEMENTS = {"Na": "sodium", "K": "potassium", "Fe": "iron", "Pb": "lead", "Au": "gold",
            "Ag": "silver", "Cu": "copper", "Hg": "mercury", "Sn": "tin", "W": "tungsten",
            "Zn": "zinc", "Ca": "calcium", "Mg": "magnesium", "Cl": "chlorine", "Ne": "neon"}
SUBSTANCES = ["water", "salt water", "olive oil", "vinegar", "milk", "lemon juice", "honey",
              "sugar syrup", "rubbing alcohol", "soapy water"]
SETTINGS = ["freezer", "sunny window", "dark cupboard", "warm oven", "cold cellar", "car trunk"]
CHANGES = ["it evaporates", "it freezes", "it thickens", "nothing changes", "it boils",
           "it separates into layers", "it grows mold", "it changes color"]
SHAPES = {"square": 4, "regular hexagon": 6, "equilateral triangle": 3, "regular pentagon": 5,
          "regular octagon": 8}
ORGANS = {"heart": "pumps blood", "lungs": "exchange gases", "kidneys": "filter blood",
          "stomach": "digests food", "liver": "breaks down toxins", "skin": "protects the body",
          "brain": "controls the nervous system", "pancreas": "makes insulin"}


def choice_item(rng: random.Random, template: int) -> str:
    """One multiple-choice item, its stem unique to its drawn slots."""
    if template == 0:
        country = rng.choice(sorted(CAPITALS))
        stem = f"What is the capital city of {country}?"
        answer, pool = CAPITALS[country], sorted(CAPITALS.values())
    elif template == 1:
        symbol = rng.choice(sorted(ELEMENTS))
        stem = f"Which element has the chemical symbol {symbol}?"
        answer, pool = ELEMENTS[symbol], sorted(ELEMENTS.values())
    elif template == 2:
        name, what, where, hours = (rng.choice(NAMES), rng.choice(SUBSTANCES),
                                    rng.choice(SETTINGS), rng.randint(2, 72))
        stem = (f"{name} leaves an open glass of {what} in a {where} for {hours} hours. "
                f"Which change is most likely to be observed?")
        answer, pool = rng.choice(CHANGES), CHANGES
    elif template == 3:
        shape, side = rng.choice(sorted(SHAPES)), rng.randint(3, 40)
        stem = f"A garden shaped like a {shape} has sides of {side} meters. What is its perimeter?"
        answer = f"{SHAPES[shape] * side} meters"
        pool = [f"{k * side} meters" for k in (2, 3, 4, 5, 6, 8, 10)]
    elif template == 4:
        organ, name = rng.choice(sorted(ORGANS)), rng.choice(NAMES)
        stem = (f"In a biology lesson {name} asks what the {organ} does. Which answer is "
                f"correct?")
        answer, pool = ORGANS[organ], sorted(ORGANS.values())
    else:
        stem, answer, pool = _fact_stem(rng, template - 5)
    options = [answer] + rng.sample([o for o in pool if o != answer], 3)
    rng.shuffle(options)
    return "Question: " + stem + " " + " ".join(
        f"{letter}. {option}" for letter, option in zip("ABCD", options)) + " Answer:"


#: Further multiple-choice stems: (stem with slots, the slots' pools, the answer pool).
FACTS = [
    ("A {mass} kg cart is pushed with a force of {force} newtons on a frictionless floor. "
     "What is its acceleration?", lambda v: f"{v['force'] / v['mass']:.1f} m/s2",
     lambda v: [f"{v['force'] * k / v['mass'] / 4:.1f} m/s2" for k in (1, 2, 3, 5, 6, 8)]),
    ("Which of the following best explains why {name}'s {crop} plants wilted after the "
     "{weather}?", lambda v: "the roots lost water faster than they took it up",
     lambda v: ["the leaves made too much sugar", "the soil held too much nitrogen",
                "the stems grew too quickly", "the flowers attracted too many bees",
                "the roots lost water faster than they took it up"]),
    ("A company's revenue rose from ${r1} million to ${r2} million in one year. By what "
     "percentage did it grow?", lambda v: f"{(v['r2'] - v['r1']) * 100 // v['r1']}%",
     lambda v: [f"{k}%" for k in range(5, 200, 7)]),
    ("Under the doctrine of {doctrine}, which party usually bears the burden in a dispute "
     "over a {contract} contract?", lambda v: "the party that breached",
     lambda v: ["the seller", "the buyer", "the court", "the party that breached",
                "the insurer", "the guarantor"]),
    ("The {philosopher} argued that {claim}. Which school of thought is this view most "
     "associated with?", lambda v: v["school"],
     lambda v: ["empiricism", "rationalism", "utilitarianism", "existentialism",
                "stoicism", "pragmatism"]),
    ("What is the value of x if {a}x + {b} = {c}?", lambda v: f"{(v['c'] - v['b']) / v['a']:g}",
     lambda v: [f"{(v['c'] - v['b']) / v['a'] + k:g}" for k in (-3, -2, -1, 1, 2, 3)]),
    ("During the {era}, which {thing} became the main source of power in {region} "
     "factories?", lambda v: "steam engines",
     lambda v: ["steam engines", "water wheels", "windmills", "horses", "electric motors",
                "diesel engines"]),
    ("A patient presents with {symptom} and a {sign}. Which test should be ordered first?",
     lambda v: "a complete blood count",
     lambda v: ["a complete blood count", "a chest x-ray", "an MRI of the head",
                "a urine culture", "an electrocardiogram", "a skin biopsy"]),
    ("In the {language} programming language, which keyword declares a {decl}?",
     lambda v: v["keyword"],
     lambda v: ["const", "let", "var", "def", "fn", "func", "class", "struct"]),
    ("The {poem} was written in which century by the poet {poet}?",
     lambda v: f"the {v['century']}th century",
     lambda v: [f"the {k}th century" for k in range(12, 21)]),
]
FACT_SLOTS = {
    "mass": list(range(2, 40)), "force": list(range(10, 200, 5)), "name": NAMES,
    "crop": ["tomato", "bean", "pepper", "squash", "lettuce", "corn", "pea"],
    "weather": ["heat wave", "dry spell", "windy week", "frost", "sandstorm"],
    "r1": list(range(10, 60)), "r2": list(range(61, 150)),
    "doctrine": ["consideration", "promissory estoppel", "frustration of purpose",
                 "anticipatory repudiation", "mutual mistake"],
    "contract": ["sales", "lease", "service", "employment", "shipping", "loan"],
    "philosopher": ["Locke", "Hume", "Descartes", "Mill", "Bentham", "Sartre", "Kant",
                    "Seneca", "Dewey"],
    "claim": ["all knowledge comes from experience", "reason alone yields certain truths",
              "the right act maximizes happiness", "existence precedes essence",
              "virtue is the only good", "ideas are tools for action"],
    "school": ["empiricism", "rationalism", "utilitarianism", "existentialism", "stoicism",
               "pragmatism"],
    "a": list(range(2, 12)), "b": list(range(1, 40)), "c": list(range(41, 120)),
    "era": ["Industrial Revolution", "late eighteenth century", "Victorian era"],
    "thing": ["machine", "device", "technology"],
    "region": ["British", "Belgian", "New England", "German", "French"],
    "symptom": ["fatigue", "fever", "night sweats", "shortness of breath", "pallor"],
    "sign": ["rapid pulse", "swollen spleen", "rash on the arms", "low blood pressure"],
    "language": ["JavaScript", "Python", "Rust", "Go", "Kotlin", "Swift"],
    "decl": ["constant", "function", "variable", "structure", "class"],
    "keyword": ["const", "let", "def", "fn", "func", "class", "struct"],
    "poem": ["Canterbury Tales", "Paradise Lost", "Divine Comedy", "Faerie Queene",
             "Ode to a Nightingale", "The Waste Land", "Leaves of Grass"],
    "poet": ["Chaucer", "Milton", "Dante", "Spenser", "Keats", "Eliot", "Whitman"],
    "century": list(range(13, 21)),
}


def _fact_stem(rng: random.Random, which: int) -> tuple[str, str, list[str]]:
    stem, answer, pool = FACTS[which]
    names = re.findall(r"{(\w+)}", stem) + ["school", "keyword", "century"]
    slots = {name: rng.choice(FACT_SLOTS[name]) for name in names}
    right = answer(slots)
    return stem.format(**slots), right, [o for o in pool(slots) if o != right] + [right]


#: A code item: an aggregate of the elements of a container kept by a filter, with a
#: worked example (every combination is one task, never repeated).
AGGREGATES = {"sum": ("Return the sum of", sum), "product": ("Return the product of",
              lambda xs: __import__("math").prod(xs)), "count": ("Count", len),
              "max": ("Return the largest of", lambda xs: max(xs, default=None)),
              "min": ("Return the smallest of", lambda xs: min(xs, default=None)),
              "sorted": ("Return in ascending order", sorted),
              "reversed": ("Return in reverse order", lambda xs: xs[::-1])}
FILTERS = {"even": ("the even", lambda x: x % 2 == 0), "odd": ("the odd", lambda x: x % 2),
           "positive": ("the positive", lambda x: x > 0),
           "negative": ("the negative", lambda x: x < 0),
           "big": ("the two-digit", lambda x: 10 <= abs(x) <= 99),
           "square": ("the perfect-square", lambda x: x >= 0 and int(x ** 0.5) ** 2 == x),
           "multiple_of_three": ("the multiple-of-three", lambda x: x % 3 == 0),
           "nonzero": ("the nonzero", lambda x: x != 0)}
CONTAINERS = {"numbers": ("numbers in the list", "numbers"),
              "matrix": ("entries of the nested list", "grid"),
              "digits": ("digits of the integer", "value"),
              "values": ("values of the dictionary", "mapping")}


def code_item(rng: random.Random, template: int) -> str:
    """One HumanEval-style function stub: a signature, a docstring, an example."""
    aggs, filters, containers = sorted(AGGREGATES), sorted(FILTERS), sorted(CONTAINERS)
    agg = aggs[template % len(aggs)]
    filt = rng.choice(filters)
    container = rng.choice(containers)
    words, func = AGGREGATES[agg]
    adjective, keep = FILTERS[filt]
    what, param = CONTAINERS[container]
    xs = [rng.randint(-20, 99) for _ in range(rng.randint(4, 7))]
    if container == "digits":
        xs = [abs(x) % 10 for x in xs]
        arg: object = int("".join(map(str, xs))) if xs[0] else int("1" + "".join(map(str, xs)))
        xs = [int(d) for d in str(arg)]
    elif container == "matrix":
        arg = [xs[:2], xs[2:]]
    elif container == "values":
        arg = {k: x for k, x in zip("abcdefg", xs)}
    else:
        arg = xs
    kept = [x for x in xs if keep(x)]
    name = f"{agg}_{filt}_{container}"
    return (f"def {name}({param}):\n    \"\"\"{words} {adjective} {what} {param}.\n"
            f"    >>> {name}({arg!r})\n    {func(kept)!r}\n    \"\"\"\n")


RENAMES = {"sum": "total", "product": "multiply", "count": "how_many", "max": "largest",
           "min": "smallest", "sorted": "ascending", "reversed": "backwards",
           "even": "divisible_by_two", "odd": "uneven", "positive": "above_zero",
           "negative": "below_zero", "big": "two_digit", "square": "perfect_square",
           "multiple": "divisible", "of": "by", "three": "3", "nonzero": "non_null",
           "numbers": "nums", "matrix": "nested", "digits": "figures", "values": "vals",
           "grid": "rows", "value": "n", "mapping": "table"}


SYNONYMS = [
    ("How many", "What number of"), ("how many", "what number of"), ("How much", "What amount"),
    (" buys ", " purchases "), (" has ", " owns "), (" gives ", " hands "),
    (" sells ", " offers "), (" every ", " each "), (" makes ", " produces "),
    (" earns ", " is paid "), (" works ", " puts in "), (" in total", " altogether"),
    (" more ", " additional "), (" takes out ", " removes "), (" puts back ", " returns "),
    (" reads ", " gets through "), (" left", " remaining"), (" drives ", " travels "),
    (" share ", " split "), (" gets ", " receives "), (" waters ", " sprinkles "),
    (" pays ", " spends "), (" needs ", " requires "), (" runs ", " jogs "),
    (" finds ", " discovers "), (" now?", " at this point?"), (" buy ", " purchase "),
    (" friend", " pal"), (" price ", " cost "), (" known as ", " called "),
    (" main ", " primary "), (" function ", " role "), (" take place", " happen"),
    ("Which ", "What "), (" wrote ", " is the author of "), (" novel ", " book "),
    (" capital city ", " capital "), (" absorb ", " take in "), (" mainly ", " chiefly "),
    (" describe", " explain"), (" Return ", " Give back "), (" Check ", " Determine "),
    (" Count ", " Compute "), (" largest ", " biggest "), (" Convert ", " Turn "),
    (" every ", " each "), (" holds", " contains"), (" occur ", " appear "),
]


def _apply_synonyms(text: str) -> str:
    padded = " " + text + " "
    for old, new in SYNONYMS:
        padded = padded.replace(old, new)
    return padded[1:-1]


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.?!])\s+", text) if s]


def _reorder(text: str) -> str:
    """The question first, the other sentences after it in reverse order."""
    parts = _sentences(text)
    questions = [s for s in parts if s.endswith("?")]
    rest = [s for s in parts if not s.endswith("?")]
    return " ".join(questions + ["Here is what we know:"] + rest[::-1])


def _frame(text: str) -> str:
    return "Solve this word problem and show your steps. " + text + " Give the final number."


def math_rewrite(text: str, kind: str) -> str:
    if kind == "synonyms":
        return _apply_synonyms(text)
    if kind == "reorder":
        return _reorder(text)
    if kind == "template":
        return _frame(text)
    return _frame(_reorder(_apply_synonyms(text)))


def choice_rewrite(text: str, kind: str, rng: random.Random) -> str:
    m = re.fullmatch(r"Question: (.*?) A\. (.*?) B\. (.*?) C\. (.*?) D\. (.*?) Answer:", text)
    assert m, text
    stem, options = m.group(1), list(m.groups()[1:])
    if kind in ("synonyms", "all"):
        stem = _apply_synonyms(stem)
    if kind in ("reorder", "all"):
        options = rng.sample(options, len(options))
    if kind in ("template", "all"):
        return ("Pick the right option. " + stem + " Options: " +
                "; ".join(f"({letter}) {o}" for letter, o in zip("abcd", options)) + ".")
    return "Question: " + stem + " " + " ".join(
        f"{letter}. {o}" for letter, o in zip("ABCD", options)) + " Answer:"


def _camel(words: list[str]) -> str:
    return words[0] + "".join(w.title() for w in words[1:])


def code_rewrite(text: str, kind: str) -> str:
    if kind in ("synonyms", "all"):
        text = _apply_synonyms(text)
    if kind in ("rename", "all"):
        def rename(m: re.Match) -> str:
            words = [RENAMES.get(w, w) for w in m.group(0).split("_")]
            parts = [p for w in words for p in w.split("_")]
            return _camel(parts) if len(parts) > 1 else parts[0]
        head, _, rest = text.partition("\n")
        fname = re.match(r"def (\w+)", head).group(1)
        params = re.findall(r"\w+", head.split("(", 1)[1])
        for ident in [fname, *params]:
            new = rename(re.match(r"\w+", ident))
            text = re.sub(rf"\b{re.escape(ident)}\b", new, text)
    if kind in ("template", "all"):
        text = "# Complete the function below.\n" + text + "    pass\n"
    return text


KINDS = {"math": ("synonyms", "reorder", "template", "all"),
         "choice": ("synonyms", "reorder", "template", "all"),
         "code": ("synonyms", "rename", "template", "all")}


def _code_split(rng: random.Random, a_count: int, negatives: int) -> tuple[list[str], list[str]]:
    """Code items: A's tasks and the negatives' from disjoint halves of the (aggregate,
    filter) pairs, so no negative is A's task on another container; each still shares
    its aggregate or its filter with many of A's."""
    pairs = [(g, f) for g in range(len(AGGREGATES)) for f in sorted(FILTERS)]
    if max(a_count, negatives) > len(pairs) // 2 * len(CONTAINERS):
        raise ValueError("more code items than tasks")
    rng.shuffle(pairs)
    halves = set(pairs[:len(pairs) // 2]), set(pairs[len(pairs) // 2:])
    out: tuple[list[str], list[str]] = ([], [])
    seen: set[str] = set()
    while len(out[0]) < a_count or len(out[1]) < negatives:
        item = code_item(rng, rng.randrange(len(AGGREGATES)))
        name = item.split("(")[0][4:]
        agg = sorted(AGGREGATES).index(name.split("_")[0])
        filt = next(f for f in sorted(FILTERS, key=len, reverse=True)
                    if name[len(sorted(AGGREGATES)[agg]) + 1:].startswith(f + "_"))
        side = 0 if (agg, filt) in halves[0] else 1
        if name in seen or len(out[side]) >= (a_count, negatives)[side]:
            continue
        seen.add(name)
        out[side].append(item)
    return out


def _items(style: str, rng: random.Random, count: int, templates: list[int] | None = None,
           seen: set[str] | None = None) -> list[str]:
    """``count`` distinct items of a style, each from one of ``templates`` (None: any)."""
    make, every = {"math": (math_item, len(OPENERS)),
                   "choice": (choice_item, 5 + len(FACTS)),
                   "code": (code_item, len(AGGREGATES))}[style]
    pool = templates if templates is not None else list(range(every))
    seen = set() if seen is None else seen
    out = []
    while len(out) < count:
        item = make(rng, rng.choice(pool))
        # a multiple-choice item: its stem; a function: its name (its task)
        key = item.split(" A. ")[0] if style != "code" else item.split("(")[0]
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out


def rewrite(style: str, text: str, kind: str, rng: random.Random) -> str:
    if style == "math":
        return math_rewrite(text, kind)
    if style == "choice":
        return choice_rewrite(text, kind, rng)
    return code_rewrite(text, kind)


def dev_set(style: str, kind: str, a_count: int = 200, negatives: int = 600, seed: int = 46,
            same_template: bool = False) -> tuple[list[str], list[str], dict[int, int]]:
    """A (``a_count`` items), B (``negatives`` other items of the style, then the
    ``kind`` rewrites of every other A item, shuffled) and A row -> its rewrite's B row.

    The negatives come from the other half of the style's templates (math: the
    opening sentence, so the rest of the sentences and the questions are shared;
    multiple choice: the stem; code: the aggregate and filter pair, so a negative
    shares one of the two); with ``same_template``, from every template, so many
    negatives are A's items with other names, numbers or containers."""
    rng = random.Random(f"{seed}:{style}:{kind}:{same_template}")
    if style == "code" and not same_template:
        a, negative = _code_split(rng, a_count, negatives)
    elif same_template:
        items = _items(style, rng, a_count + negatives)
        a, negative = items[:a_count], items[a_count:]
    else:
        every = {"math": len(OPENERS), "choice": 5 + len(FACTS),
                 "code": len(AGGREGATES)}[style]
        order = list(range(every))
        rng.shuffle(order)
        seen: set[str] = set()
        a = _items(style, rng, a_count, order[:every // 2], seen)
        negative = _items(style, rng, negatives, order[every // 2:], seen)
    rewritten = {i: rewrite(style, a[i], kind, rng) for i in range(0, a_count, 2)}
    b_rows = [(text, None) for text in negative] + [(text, i) for i, text in rewritten.items()]
    return _hidden(a, b_rows, rng)


def passage_set(kind: str, passages: int = 50, per_passage: int = 4, negatives: int = 200,
                seed: int = 46) -> tuple[list[str], list[str], dict[int, int]]:
    """Reading-comprehension items: a passage (four math word problems run together,
    about 100 words) and a multiple-choice question on it, ``per_passage`` questions
    on each passage, as a SQuAD- or RACE-style test set repeats its passages. B holds
    the passage with its question rewritten (the ``kind`` of multiple-choice rewrite)
    for every other A row, among negatives: other passages with other questions.
    Returns A, B and A row -> its rewrite's B row, as :func:`dev_set`."""
    rng = random.Random(f"{seed}:passage:{kind}")
    texts = _items("math", rng, 4 * (passages + negatives))
    questions = _items("choice", rng, passages * per_passage + negatives)
    a, b_rows = [], []
    for p in range(passages):
        passage = " ".join(texts[4 * p:4 * p + 4])
        for q in range(per_passage):
            question = questions[p * per_passage + q]
            a.append(passage + " " + question)
            if len(a) % 2:
                b_rows.append((passage + " " + choice_rewrite(question, kind, rng), len(a) - 1))
    for n in range(negatives):
        first = 4 * (passages + n)
        b_rows.append((" ".join(texts[first:first + 4]) + " " +
                       questions[passages * per_passage + n], None))
    return _hidden(a, b_rows, rng)


def _hidden(a: list[str], b_rows: list[tuple[str, int | None]], rng: random.Random
            ) -> tuple[list[str], list[str], dict[int, int]]:
    """A, and B's rows (text, the A row it rewrites or None) shuffled: A, B's texts
    and A row -> its rewrite's B row."""
    rng.shuffle(b_rows)
    truth = {i: r for r, (_, i) in enumerate(b_rows) if i is not None}
    return a, [text for text, _ in b_rows], truth
