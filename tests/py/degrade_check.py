"""degrade_check.py FILE WORD: the layers report FILE (made where no user
namespace can be created) measured every layer but user, and says that the
deferred teardown is unavailable for a reason that names WORD
(tests/integration/degrade.sh)."""
import json
import sys


def main():
    d = json.load(open(sys.argv[1]))
    word = sys.argv[2]
    layers = {l["layer"]: l for l in d["layers"]}
    assert not layers["user"]["available"], "user is available"
    assert word in layers["user"]["reason"], \
        f"user's reason does not name {word}: {layers['user']['reason']}"
    measured = [n for n, l in layers.items() if l.get("available") and n != "base"]
    assert "uts" in measured and "net" in measured, f"measured only {measured}"
    for n in measured:
        assert layers[n]["setup_us"]["n"] == 3, f"{n}: {layers[n]['setup_us']['n']} setup samples"
        assert layers[n]["deferred_us"] is None, f"{n}: a deferred figure without a user namespace"
    dfr = d["measurement"]["deferred"]
    assert dfr["available"] is False, dfr
    assert word in dfr["reason"], f"deferred reason does not name {word}: {dfr['reason']}"
    assert any("deferred teardown unavailable" in e for e in d["errors"]), d["errors"]


if __name__ == "__main__":
    main()
