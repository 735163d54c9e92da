package handler

func A() error {
	if err := step(); err != nil {
		return err
	}
	return nil
}

func B() error {
	if err := step(); err != nil {
		return err
	}
	return nil
}
