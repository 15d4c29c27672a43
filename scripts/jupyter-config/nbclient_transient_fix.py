# Loaded by jupyter_nbconvert_config.py and jupyter_execute_config.py. Works around nbclient < 0.10.2 crashing on the Deno kernel's `"transient": null`
# (AttributeError: 'NoneType' object has no attribute 'get'); see jupyter/nbclient#322.
from nbclient.client import NotebookClient

if not getattr(NotebookClient, "_market_workbench_transient_fix", False):
    _process_message = NotebookClient.process_message

    def _process_message_with_transient(self, msg, *args, **kwargs):
        content = msg.get("content")
        if isinstance(content, dict) and "transient" in content and content["transient"] is None:
            content["transient"] = {}
        return _process_message(self, msg, *args, **kwargs)

    NotebookClient.process_message = _process_message_with_transient
    NotebookClient._market_workbench_transient_fix = True
