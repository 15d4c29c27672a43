# `jupyter execute` with the Deno kernel on nbclient < 0.10.2 (Debian 12 ships 0.7.2): see nbclient_transient_fix.py.
# Found through JUPYTER_CONFIG_PATH, which `npm run notebook` and the README set to this folder.
load_subconfig("nbclient_transient_fix.py")
