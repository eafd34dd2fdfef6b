"""Ordinal names of the labelled samples: the dev-set TSVs name a sample by its ordinal
(`sample` column, file names, notes such as "twenty-eighth sample (seed 28028)")."""

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
            "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth",
            "eighteenth", "nineteenth", "twentieth", "twenty-first", "twenty-second", "twenty-third",
            "twenty-fourth", "twenty-fifth", "twenty-sixth", "twenty-seventh", "twenty-eighth", "twenty-ninth",
            "thirtieth", "thirty-first", "thirty-second", "thirty-third", "thirty-fourth", "thirty-fifth",
            "thirty-sixth", "thirty-seventh", "thirty-eighth", "thirty-ninth", "fortieth",
            "forty-first", "forty-second", "forty-third", "forty-fourth", "forty-fifth", "forty-sixth",
            "forty-seventh", "forty-eighth", "forty-ninth", "fiftieth", "fifty-first", "fifty-second",
            "fifty-third", "fifty-fourth", "fifty-fifth", "fifty-sixth")
