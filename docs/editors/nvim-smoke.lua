-- Drives `ordercheck lsp` from a headless Neovim (used for docs/editors.md):
-- waits for the diagnostics of the current buffer, prints them with their related
-- information, applies the quick fix and waits for the diagnostics to clear.
local out = {}
local function log(s) table.insert(out, s) end
local function finish() vim.fn.writefile(out, os.getenv("SMOKE_OUT") or "smoke-result.txt"); vim.cmd("qa!") end
local ok = vim.wait(20000, function() return #vim.diagnostic.get(0) > 0 end, 100)
log("diagnostics published: " .. tostring(ok))
for _, d in ipairs(vim.diagnostic.get(0)) do
  log(string.format("%s %d:%d-%d:%d %s", d.code or d.user_data and d.user_data.lsp.code or "?", d.lnum, d.col, d.end_lnum, d.end_col, d.message))
  local lsp = d.user_data and d.user_data.lsp
  if lsp and lsp.relatedInformation then
    for _, r in ipairs(lsp.relatedInformation) do log("  related " .. r.location.range.start.line .. ": " .. r.message) end
  end
end
-- the quick fix, as :lua vim.lsp.buf.code_action() would offer it
vim.api.nvim_win_set_cursor(0, { 3, 20 })
local params = vim.lsp.util.make_range_params()
params.context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(0, 2) }
local res = vim.lsp.buf_request_sync(0, "textDocument/codeAction", params, 10000)
for _, r in pairs(res or {}) do
  for _, action in ipairs(r.result or {}) do
    log("code action: " .. action.title)
    vim.lsp.util.apply_workspace_edit(action.edit, "utf-16")
  end
end
log("line 3 now: " .. vim.api.nvim_buf_get_lines(0, 2, 3, false)[1])
local cleared = vim.wait(20000, function() return #vim.diagnostic.get(0) == 0 end, 100)
log("diagnostics cleared after the quick fix: " .. tostring(cleared))
finish()
