-- Neovim 0.7: no vim.lsp.start yet
vim.cmd("filetype plugin on")
vim.api.nvim_create_autocmd("FileType", {
  pattern = "python",
  callback = function(args)
    local id = vim.lsp.start_client({
      name = "ordercheck",
      cmd = { os.getenv("ORDERCHECK") or "ordercheck", "lsp" },
      root_dir = vim.fn.getcwd(),
    })
    vim.lsp.buf_attach_client(args.buf, id)
  end,
})
