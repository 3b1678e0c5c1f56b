"""The battle reports API: a battle's report and its workflow, the campaign's reports and its disputes."""
