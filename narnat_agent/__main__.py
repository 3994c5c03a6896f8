from narnat_agent.cli import run

run()
