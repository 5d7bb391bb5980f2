// Examples of the typed DSL live here (issue 3).
import Statechart
